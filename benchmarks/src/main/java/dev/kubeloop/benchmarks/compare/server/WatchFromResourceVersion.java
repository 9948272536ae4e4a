package dev.kubeloop.benchmarks.compare.server;

import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches that start from the {@code resourceVersion} the client asks for, as a real API server's
 * do. The mock's own watch sends every stored object as ADDED when it opens, and its websocket
 * writer waits for one event-loop round trip per message on the server's single request thread:
 * an informer's watch after listing 10,000 objects re-sends all of them, interleaved with the
 * contender's own requests, and every later event (such as the priority scenario's fresh object)
 * queues behind that replay for seconds. That is a mock artefact, not a cost any contender
 * causes, so the harness's dispatcher replays only objects newer than the requested version.
 *
 * <p>{@code KubernetesCrudDispatcher} keeps the watch machinery private (the listener class is
 * package-private, the listener set and the lock are private fields), so this reaches it by
 * reflection, built once per dispatcher. Tied to kubernetes-server-mock 7.8.0; if a later version
 * changes those members, construction fails with a clear message and {@code --mock-watch-replay=true}
 * falls back to the mock's own watch.
 */
final class WatchFromResourceVersion {

    private static final Logger log = LoggerFactory.getLogger(WatchFromResourceVersion.class);
    private static final Pattern RESOURCE_VERSION_PARAM = Pattern.compile("[?&]resourceVersion=(\\d+)");
    private static final Pattern FIELD_SELECTOR_NAME = Pattern.compile("metadata\\.name(?:==|=)([^,&]+)");
    private static final Pattern STORED_RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

    private final KubernetesCrudDispatcher dispatcher;
    private final Context context;
    private final Set<Object> listeners;
    private final ReadWriteLock lock;
    private final Constructor<?> newListener;
    private final Method attributeMatches;
    private final Method send;

    @SuppressWarnings("unchecked")
    WatchFromResourceVersion(KubernetesCrudDispatcher dispatcher, Context context) {
        this.dispatcher = dispatcher;
        this.context = context;
        try {
            Field listenersField = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
            listenersField.setAccessible(true);
            this.listeners = (Set<Object>) listenersField.get(dispatcher);
            Field lockField = KubernetesCrudDispatcher.class.getDeclaredField("lock");
            lockField.setAccessible(true);
            this.lock = (ReadWriteLock) lockField.get(dispatcher);
            Class<?> listenerClass = Class.forName("io.fabric8.kubernetes.client.server.mock.WatchEventsListener");
            this.newListener = listenerClass.getDeclaredConstructor(Context.class, AttributeSet.class, Set.class,
                    Logger.class, Consumer.class);
            this.newListener.setAccessible(true);
            this.attributeMatches = listenerClass.getDeclaredMethod("attributeMatches", AttributeSet.class);
            this.attributeMatches.setAccessible(true);
            this.send = listenerClass.getDeclaredMethod("sendWebSocketResponse", String.class, Watcher.Action.class);
            this.send.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kubernetes-server-mock's watch internals changed; run with "
                    + "--mock-watch-replay=true", e);
        }
    }

    /** The watch's response, or null if the request names no resourceVersion (the mock's own watch then). */
    MockResponse watch(String path, AttributeSet query, Map<AttributeSet, String> objects) {
        long from = resourceVersion(path);
        if (from <= 0) {
            return null;
        }
        AttributeSet watched = named(path).map(name -> query.add(new Attribute("name", name))).orElse(query);
        try {
            Consumer<Object> onOpen = listener -> replayNewerThan(from, listener, objects);
            Object listener = newListener.newInstance(context, watched, listeners, log, onOpen);
            listeners.add(listener);
            return new MockResponse().withWebSocketUpgrade((WebSocketListener) listener);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private void replayNewerThan(long from, Object listener, Map<AttributeSet, String> objects) {
        List<String> newer = new ArrayList<>();
        lock.readLock().lock();
        try {
            for (Map.Entry<AttributeSet, String> entry : new ArrayList<>(objects.entrySet())) {
                if ((boolean) attributeMatches.invoke(listener, entry.getKey()) && storedVersion(entry.getValue()) > from) {
                    newer.add(entry.getValue());
                }
            }
            for (String object : newer) {
                send.invoke(listener, object, Watcher.Action.ADDED);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    private static long resourceVersion(String path) {
        Matcher matcher = RESOURCE_VERSION_PARAM.matcher(path);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private static Optional<String> named(String path) {
        Matcher matcher = FIELD_SELECTOR_NAME.matcher(URLDecoder.decode(path, StandardCharsets.UTF_8));
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** The object's metadata.resourceVersion: the only resourceVersion in a stored BenchResource. */
    private static long storedVersion(String json) {
        Matcher matcher = STORED_RESOURCE_VERSION.matcher(json);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : Long.MAX_VALUE;
    }
}
