package dev.kubeloop.benchmarks.watch;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal API server for informers that only need to fill their caches: it answers the LIST of
 * each collection path it was given (paged when the client sends {@code limit} and
 * {@code continue}) from a {@link PreparedList}, and its WATCH with a connection that stays open
 * and silent (nothing changes). It ignores the {@code Accept} header, so a metadata-only list gets
 * whole objects, as from fabric8's mock. Anything else is a 404 and is recorded.
 *
 * <p>The resource-bounds server ({@code bounds.ListServingDispatcher}) serves one custom resource
 * and its status writes; this one serves any type and writes nothing. Thread-safe: the lists are
 * immutable, the record of unexpected requests concurrent.
 */
final class ListOnlyDispatcher extends Dispatcher {

    private static final String NOT_FOUND = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
            + "\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}";

    /**
     * Collection path (e.g. {@code /api/v1/namespaces/bench/secrets}) to its objects; a list with a
     * label selector is looked up as {@code <path>?labelSelector=<selector, decoded>}.
     */
    private final Map<String, PreparedList> collections;
    private final List<String> unexpected = new CopyOnWriteArrayList<>();

    ListOnlyDispatcher(Map<String, PreparedList> collections) {
        this.collections = Map.copyOf(collections);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath();
        int queryStart = path.indexOf('?');
        Map<String, String> query = query(queryStart < 0 ? "" : path.substring(queryStart + 1));
        String collection = queryStart < 0 ? path : path.substring(0, queryStart);
        // a filtered list is its own prepared list, registered as path?labelSelector=<selector>
        PreparedList list = collections.get(query.containsKey("labelSelector")
                ? collection + "?labelSelector=" + query.get("labelSelector") : collection);
        if (list != null && "GET".equals(request.getMethod())) {
            if ("true".equals(query.get("watch"))) {
                return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
                });
            }
            int offset = query.containsKey("continue") ? Integer.parseInt(query.get("continue")) : 0;
            int limit = query.containsKey("limit") ? Integer.parseInt(query.get("limit")) : 0;
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                    .setBody(list.page(offset, limit));
        }
        unexpected.add(request.getMethod() + " " + path);
        return new MockResponse().setResponseCode(404).setHeader("Content-Type", "application/json")
                .setBody(NOT_FOUND);
    }

    private static Map<String, String> query(String query) {
        Map<String, String> values = new HashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.put(key, value);
        }
        return values;
    }

    /** Requests it could not answer, as {@code METHOD path}. */
    List<String> unexpected() {
        return List.copyOf(unexpected);
    }
}
