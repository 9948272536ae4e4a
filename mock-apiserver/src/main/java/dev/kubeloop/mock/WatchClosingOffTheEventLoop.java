package dev.kubeloop.mock;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;

/**
 * The mock's dispatcher with one fix: a watch's close is handled off the server's event loop. Every
 * mock server of this project puts it in front of the CRUD dispatcher ({@link EmbeddedApiServer},
 * the library's own test cluster).
 *
 * <p>kubernetes-server-mock 7.8.0's {@code WatchEventsListener.onClosed} runs on the Vert.x event
 * loop and waits (up to a minute) for the watch's sender thread to finish; a send in progress waits
 * (up to 30 s) for its write, which only that event loop can complete. So a client closing a watch
 * while an event is on its way to it stalls the whole mock server for 30 s, and closing the server then fails ("Unable to close
 * MockWebServer", after 10 s): seen in a CI run of the sample's tests when the operator's leader
 * released its Lease while its informers closed their watches. Any test that stops an
 * informer while objects change can hit it; leader election, whose Lease changes every retry period
 * and is watched by every replica, hits it often. Running the close on a thread of its own lets the
 * event loop complete the write, and the close follows at once.
 *
 * <p>And a second: the mock removes a closed watch from its list of watchers only after shutting
 * down the watch's sender, so a create or update in between hands the event to a sender that
 * rejects it; the exception escapes the request (which then never gets a response, and the client
 * times out) and the watchers after it in the list miss the event. The watch is removed from the
 * list here as soon as its close begins.
 *
 * <p>It also keeps the server side of every open watch, so that a test can cut them all at once
 * ({@link #cutOpenWatches}), as an API server restart, a proxy or a load balancer's idle timeout
 * would. Thread-safe.
 */
public final class WatchClosingOffTheEventLoop extends DecoratingDispatcher {

    /** kube-apiserver's watch event for a resourceVersion older than its watch cache holds. */
    private static final String EXPIRED = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
            + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version\","
            + "\"reason\":\"Expired\",\"code\":410}}";

    private final ExecutorService closer = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "mock-watch-close");
        thread.setDaemon(true);
        return thread;
    });

    /** The CRUD dispatcher's live set of watches (7.8.0 internals, read by reflection). */
    private final Set<?> watchers;
    /** The server side of every watch (web socket) opened and not yet closing. */
    private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();

    /** In front of {@code crud}, or of a dispatcher chain ending in it ({@code delegate}). */
    public WatchClosingOffTheEventLoop(Dispatcher delegate, KubernetesCrudDispatcher crud) {
        super(delegate);
        this.watchers = watchers(crud);
    }

    /** In front of a mixed (expectations and CRUD) dispatcher. */
    public WatchClosingOffTheEventLoop(KubernetesMixedDispatcher mixed) {
        this(mixed, crudOf(mixed));
    }

    private static KubernetesCrudDispatcher crudOf(KubernetesMixedDispatcher mixed) {
        try {
            Field crud = KubernetesMixedDispatcher.class.getDeclaredField("kubernetesCrudDispatcher");
            crud.setAccessible(true);
            return (KubernetesCrudDispatcher) crud.get(mixed);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kubernetes-server-mock's internals changed; revisit this workaround", e);
        }
    }

    private static Set<?> watchers(KubernetesCrudDispatcher crud) {
        try {
            Field listeners = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
            listeners.setAccessible(true);
            return (Set<?>) listeners.get(crud);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kubernetes-server-mock's internals changed; revisit this workaround", e);
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        MockResponse response = delegate.dispatch(request);
        WebSocketListener listener = response.getWebSocketListener();
        return listener == null ? response : response.withWebSocketUpgrade(new ClosingOffLoop(listener));
    }

    /**
     * Closes the server side of every open watch. A plain cut is a normal close (code 1000), after
     * which a client watches again from the last resourceVersion it saw; an expiring cut first sends
     * the ERROR event a real API server sends when that resourceVersion is too old to watch from
     * (410 Gone, reason Expired), after which an informer lists again.
     *
     * @return how many watches were cut
     */
    public int cutOpenWatches(boolean expire) {
        int cut = 0;
        for (WebSocket watch : List.copyOf(openWatches)) {
            if (!openWatches.remove(watch)) {
                continue; // closed meanwhile
            }
            if (expire) {
                watch.send(EXPIRED);
            }
            watch.close(1000, "watch cut by the test");
            cut++;
        }
        return cut;
    }

    /**
     * Whether a watch whose path (without its query) matches {@code pathPattern} is open on the
     * server side now. A client counts its watch as open once it reads the server's upgrade answer,
     * which the server sends before it registers the watch here, so for a moment the client watches
     * and {@link #cutOpenWatches} finds nothing to cut.
     */
    public boolean watchOpen(Pattern pathPattern) {
        for (WebSocket watch : openWatches) {
            String path = watch.request().getPath();
            int query = path.indexOf('?');
            if (pathPattern.matcher(query < 0 ? path : path.substring(0, query)).matches()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void releaseResources() {
        super.releaseResources();
        closer.shutdown();
    }

    private final class ClosingOffLoop extends WebSocketListener {
        private final WebSocketListener listener;

        ClosingOffLoop(WebSocketListener listener) {
            this.listener = listener;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            listener.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            openWatches.add(webSocket);
            listener.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            listener.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            listener.onMessage(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            openWatches.remove(webSocket);
            watchers.remove(listener);
            listener.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            openWatches.remove(webSocket);
            watchers.remove(listener);
            offLoop(() -> listener.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            openWatches.remove(webSocket);
            watchers.remove(listener);
            offLoop(() -> listener.onFailure(webSocket, error, response));
        }

        private void offLoop(Runnable close) {
            try {
                closer.execute(close);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                close.run(); // the server is shutting down
            }
        }
    }
}
