package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.benchmarks.bounds.app.BoundsOperatorMain;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Set;

/**
 * The child JVM of {@link OwnedHeapMain}: caches the ConfigMaps of {@code --namespace} as an owned
 * kind is cached ({@code ControllerWorkers.registerOwned}: the reconciler's namespaces, the owner
 * index), with the owned cache's {@code --label-selector} (empty: the whole kind, the default),
 * waits until it has synced, collects garbage until the heap stops shrinking and prints one
 * {@code [heap] key=value ...} line, as {@link MetadataHeapChild} does. Exits 0, or 1 if the cache
 * does not hold {@code --expect} ConfigMaps.
 */
public final class OwnedHeapChild {

    private OwnedHeapChild() {
    }

    public static void main(String[] args) throws Exception {
        String namespace = null;
        String selector = "";
        int expected = 0;
        String master = null;
        for (String arg : args) {
            String value = arg.substring(arg.indexOf('=') + 1);
            switch (arg.substring(2, arg.indexOf('='))) {
                case "namespace" -> namespace = value;
                case "label-selector" -> selector = value;
                case "expect" -> expected = Integer.parseInt(value);
                case "master" -> master = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        KubernetesClient client = ClientFactory.create(master, namespace);
        InformerRegistry informers = ReconcilerCaches.informers(client);
        ResourceCache<ConfigMap> cache = informers.register(CacheRequest.of(ConfigMap.class)
                .namespaces(Set.of(namespace)).ownerIndex(true).labelSelector(selector));
        long startNanos = System.nanoTime();
        informers.start();
        informers.awaitSynced(Duration.ofMinutes(5));
        long syncMillis = (System.nanoTime() - startNanos) / 1_000_000;
        int cached = cache.size();
        long heap = BoundsOperatorMain.heapAfterFullGc();
        System.out.println(MetadataHeapChild.REPORT_PREFIX + "cached=" + cached + " syncMs=" + syncMillis
                + " heapUsed=" + heap);
        System.out.flush();
        int held = cache.size(); // read after the measurement: the informer ran while the heap was read
        informers.stop();
        client.close();
        System.exit(held == expected ? 0 : 1);
    }
}
