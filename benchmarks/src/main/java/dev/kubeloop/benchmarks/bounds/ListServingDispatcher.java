package dev.kubeloop.benchmarks.bounds;

import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A minimal API server for {@link PreparedObjects}, answering only what a Kubeloop operator asks
 * for: discovery of the group-version, the LIST (paged when the client sends {@code limit} and
 * {@code continue}), a WATCH that stays open and silent (nothing changes), and PATCHes of
 * {@code /status}, answered with the stored object. Anything else is a 404 and is counted.
 *
 * <p>The CRUD mock would do: but it scans every stored object per request, so creating and serving
 * 50,000 objects on it takes longer than the measurement. Thread-safe: the objects are immutable,
 * the counters concurrent.
 */
final class ListServingDispatcher extends Dispatcher {

    private static final String GROUP_VERSION = "/apis/" + BenchResource.GROUP + "/" + BenchResource.VERSION;
    private static final Pattern COLLECTION = Pattern.compile(Pattern.quote(GROUP_VERSION)
            + "(?:/namespaces/" + PreparedObjects.NAMESPACE + ")?/" + BenchResource.PLURAL + "/?(?:\\?(.*))?");
    private static final Pattern STATUS = Pattern.compile(Pattern.quote(GROUP_VERSION) + "/namespaces/"
            + PreparedObjects.NAMESPACE + "/" + BenchResource.PLURAL + "/([^/?]+)/status(?:\\?.*)?");
    private static final String NOT_FOUND = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
            + "\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}";

    private final PreparedObjects objects;
    private final String discovery;
    private final Set<String> statusWritten = ConcurrentHashMap.newKeySet();
    private final AtomicInteger lists = new AtomicInteger();
    private final AtomicInteger watches = new AtomicInteger();
    private final AtomicInteger statusPatches = new AtomicInteger();
    private final AtomicInteger unexpected = new AtomicInteger();

    ListServingDispatcher(PreparedObjects objects, String discovery) {
        this.objects = objects;
        this.discovery = discovery;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath();
        String method = request.getMethod();
        if ("GET".equals(method) && (path.equals(GROUP_VERSION) || path.startsWith(GROUP_VERSION + "?"))) {
            return json(discovery.getBytes(StandardCharsets.UTF_8));
        }
        Matcher collection = COLLECTION.matcher(path);
        if ("GET".equals(method) && collection.matches()) {
            Map<String, String> query = query(collection.group(1));
            if ("true".equals(query.get("watch"))) {
                watches.incrementAndGet();
                return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
                });
            }
            lists.incrementAndGet();
            int offset = query.containsKey("continue") ? Integer.parseInt(query.get("continue")) : 0;
            int limit = query.containsKey("limit") ? Integer.parseInt(query.get("limit")) : 0;
            return json(objects.page(offset, limit));
        }
        Matcher status = STATUS.matcher(path);
        if ("PATCH".equals(method) && status.matches()) {
            byte[] item = objects.item(status.group(1));
            if (item != null) {
                statusPatches.incrementAndGet();
                statusWritten.add(status.group(1));
                return json(item);
            }
        }
        unexpected.incrementAndGet();
        System.err.println("unexpected request: " + method + " " + path);
        return new MockResponse().setResponseCode(404).setHeader("Content-Type", "application/json")
                .setBody(NOT_FOUND);
    }

    private static MockResponse json(byte[] body) {
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body);
    }

    private static Map<String, String> query(String query) {
        Map<String, String> values = new HashMap<>();
        if (query == null || query.isEmpty()) {
            return values;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.put(key, value);
        }
        return values;
    }

    /** Objects whose status was written at least once. */
    int statusWritten() {
        return statusWritten.size();
    }

    int statusPatches() {
        return statusPatches.get();
    }

    int lists() {
        return lists.get();
    }

    int watches() {
        return watches.get();
    }

    int unexpected() {
        return unexpected.get();
    }
}
