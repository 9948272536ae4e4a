package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.api.watch.Mapper;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import dev.kubeloop.runtime.controller.ControllerCaches;
import dev.kubeloop.runtime.handler.EnqueueRequestsFromMapper;
import dev.kubeloop.runtime.handler.InformerEventAdapter;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Mapping one Secret update to the primaries that name it, with 1,000 to 100,000 primaries of
 * which always exactly 100 name the updated Secret ({@link TlsIngresses}): the cost per event must
 * depend on the referrers, not on the primaries.
 *
 * <p>The path is the runtime's: the primaries (Ingresses) are cached by a real fabric8 informer of
 * the {@link InformerRegistry}, with the index declared as a reconciler declares it, filled by a
 * LIST from an in-process server ({@link ListServer}); a Secret update goes through
 * {@link InformerEventAdapter} (the watch's predicate) into {@link EnqueueRequestsFromMapper}, whose
 * {@link Mappers#byIndex} mapper reads the caches (the runtime's {@link ControllerCaches}) → {@code ResourceCache.byIndex} → fabric8's indexer, and
 * whose keys go into a real {@link PriorityWorkQueue}.
 *
 * <ul>
 *   <li>{@code secretUpdateToQueue}: one update event (old and new object, as fabric8 delivers it:
 *       both are mapped, the union queued), then the 100 keys taken and marked done, as a worker
 *       would, so that every invocation queues them afresh instead of finding them queued.
 *   <li>{@code mapperOnly}: the mapper alone, for one object: the index lookup and the keys.
 *   <li>{@code listScanMapper}: for contrast, what the index saves: a mapper that lists the
 *       namespace's primaries from the same cache and keeps those naming the Secret (the
 *       "custom enqueuer" written without an index).
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar SecretToReferrersBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SecretToReferrersBenchmark {

    private static final String RECONCILER = "ingress-tls";

    @Param({"1000", "10000", "100000"})
    public int primaries;

    private ListServer server;
    private KubernetesClient client;
    private InformerRegistry informers;
    private ControllerCaches caches;
    private Watch<Secret> watch;
    private Mapper<Secret> scan;
    private PriorityWorkQueue<ObjectKey> queue;
    private InformerEventAdapter<Secret> secretEvents;
    private Secret before;
    private Secret after;

    @Setup(Level.Trial)
    public void cachePrimaries() throws InterruptedException {
        KubernetesSerialization serialization = new KubernetesSerialization();
        server = ListServer.start(Map.of("/apis/networking.k8s.io/v1/namespaces/" + TlsIngresses.NAMESPACE
                + "/ingresses", PreparedList.of(Ingress.class, TlsIngresses.create(primaries), serialization)));
        client = ClientFactory.create(server.url(), TlsIngresses.NAMESPACE);
        informers = ReconcilerCaches.informers(client);
        caches = new ControllerCaches(RECONCILER);
        IndexFunction<Ingress> tlsSecrets = TlsIngresses::tlsSecrets;
        // a reconciler of Ingresses in one namespace; no handler on them, so the queue holds only the mapper's keys
        ResourceCache<Ingress> cache = caches.register(informers, Ingress.class,
                CacheRequest.of(Ingress.class).namespaces(Set.of(TlsIngresses.NAMESPACE)),
                Map.of(TlsIngresses.INDEX, ControllerCaches.indexer(tlsSecrets)));
        informers.start();
        informers.awaitSynced(Duration.ofMinutes(5));
        if (cache.list().size() != primaries || !server.unexpected().isEmpty()) {
            throw new IllegalStateException("cached " + cache.list().size() + " of " + primaries
                    + " primaries; unexpected requests " + server.unexpected());
        }

        // as the sample declares it for Websites: a metadata-only watch of Secrets mapped through the index
        watch = Watch.of(Secret.class).metadataOnly().mapper(Mappers.byIndex(Ingress.class, TlsIngresses.INDEX));
        scan = (secret, reader) -> {
            List<ObjectKey> keys = new ArrayList<>();
            for (Ingress ingress : reader.list(Ingress.class, secret.getMetadata().getNamespace())) {
                if (TlsIngresses.tlsSecrets(ingress).contains(secret.getMetadata().getName())) {
                    keys.add(ObjectKey.of(ingress));
                }
            }
            return keys;
        };
        queue = PriorityWorkQueue.create(RECONCILER);
        secretEvents = new InformerEventAdapter<>(watch.predicate(),
                new EnqueueRequestsFromMapper<>(queue, watch.mapper(), caches),
                "secrets in namespace " + TlsIngresses.NAMESPACE + " (metadata only)");
        secretEvents.onList("1", false); // the initial list is over: updates are real changes
        // what a metadata-only watch delivers on a rotation: the same Secret, a newer resourceVersion
        before = secret("1000");
        after = secret("1001");

        secretEvents.onUpdate(before, after);
        if (queue.len() != TlsIngresses.REFERRERS) {
            throw new IllegalStateException("one update queued " + queue.len() + " keys, expected "
                    + TlsIngresses.REFERRERS);
        }
        drain();
        if (scan.map(after, caches).size() != TlsIngresses.REFERRERS) {
            throw new IllegalStateException("the list scan does not find the " + TlsIngresses.REFERRERS + " referrers");
        }
    }

    private static Secret secret(String resourceVersion) {
        return new SecretBuilder().withNewMetadata().withName(TlsIngresses.updatedSecret())
                .withNamespace(TlsIngresses.NAMESPACE).withUid("0d9b1c4e-5b7a-4d0e-9f44-3c2a1b0e9d87")
                .withResourceVersion(resourceVersion).endMetadata().build();
    }

    @TearDown(Level.Trial)
    public void stop() {
        queue.shutDown();
        informers.stop();
        client.close();
        server.close();
    }

    @Benchmark
    public ObjectKey secretUpdateToQueue() throws InterruptedException {
        secretEvents.onUpdate(before, after);
        return drain();
    }

    @Benchmark
    public Collection<ObjectKey> mapperOnly() {
        return watch.mapper().map(after, caches);
    }

    @Benchmark
    public Collection<ObjectKey> listScanMapper() {
        return scan.map(after, caches);
    }

    /** Takes and finishes the referrers' keys, as workers would; returns the last, for JMH to consume. */
    private ObjectKey drain() throws InterruptedException {
        ObjectKey last = null;
        for (int i = 0; i < TlsIngresses.REFERRERS; i++) {
            WorkQueue.Prioritized<ObjectKey> next = queue.getWithPriority().orElseThrow();
            queue.done(next.item());
            last = next.item();
        }
        return last;
    }
}
