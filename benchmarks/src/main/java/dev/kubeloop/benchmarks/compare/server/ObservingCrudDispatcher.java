package dev.kubeloop.benchmarks.compare.server;

import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * The mock server's CRUD dispatcher, plus two things the harness needs from it:
 *
 * <ul>
 *   <li>watches start from the requested resourceVersion ({@link WatchFromResourceVersion});
 *   <li>every accepted write to a {@code /status} subresource is handed to a {@link StatusObserver},
 *       so completion is seen where it happens without a second watch (on the mock, each watch
 *       costs every write a serialization under the server's global lock);
 *   <li>{@link #seed} stores objects directly, as a POST would have stored them: creating
 *       10,000 objects through HTTP costs 15-20 s because every request scans every object.
 * </ul>
 */
final class ObservingCrudDispatcher extends KubernetesCrudDispatcher {

    private final StatusObserver observer;
    private final WatchFromResourceVersion watches;

    /** @param replayOnWatch keep the mock's own watch, which re-sends every object when it opens */
    ObservingCrudDispatcher(StatusObserver observer, boolean replayOnWatch) {
        this.observer = observer;
        this.watches = replayOnWatch ? null : new WatchFromResourceVersion(this, context);
    }

    @Override
    public MockResponse handleWatch(String path) {
        MockResponse fromVersion = watches == null ? null : watches.watch(path, attributeExtractor.fromPath(path), map);
        return fromVersion != null ? fromVersion : super.handleWatch(path);
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        return observe(request, super.handlePatch(request));
    }

    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        return observe(request, super.handleUpdate(request));
    }

    private MockResponse observe(RecordedRequest request, MockResponse response) {
        if (response.code() / 100 == 2 && isStatusPath(request.getPath()) && response.getBody() != null) {
            observer.accepted(WallClock.nowNanos(), response.getBody().getBytes());
        }
        return response;
    }

    private static boolean isStatusPath(String path) {
        int query = path.indexOf('?');
        return (query < 0 ? path : path.substring(0, query)).endsWith("/status");
    }

    /**
     * Stores objects with the metadata the mock's POST handler would have given them (uid,
     * creationTimestamp, resourceVersion, generation 1) under the attributes it would have used.
     * Call it before any client connects: it bypasses the dispatcher's lock. The CRD must be
     * registered already, so that the stored attributes include the plural.
     */
    void seed(List<BenchResource> objects) {
        String created = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (BenchResource object : objects) {
            object.getMetadata().setUid(UUID.randomUUID().toString());
            object.getMetadata().setCreationTimestamp(created);
            object.getMetadata().setResourceVersion(String.valueOf(requestResourceVersion()));
            object.getMetadata().setGeneration(1L);
            String json = Serialization.asJson(object);
            String path = "/apis/" + BenchResource.GROUP + "/" + BenchResource.VERSION + "/namespaces/"
                    + object.getMetadata().getNamespace() + "/" + BenchResource.PLURAL + "/"
                    + object.getMetadata().getName();
            AttributeSet attributes = AttributeSet.merge(attributeExtractor.fromPath(path),
                    attributeExtractor.fromResource(json));
            map.put(attributes, json);
        }
    }
}
