package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.benchmarks.bounds.app.BoundsOperatorMain;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The child JVM of {@link MetadataHeapMain}: caches the Secrets of {@code --namespace} through the
 * runtime's {@link InformerRegistry}, whole or with {@code --metadata-only} (a
 * {@link CacheRequest#metadataOnly} request, as a {@code Watch.metadataOnly()} makes), waits until
 * the cache has synced, collects garbage until the heap stops shrinking (the resource-bounds
 * method, {@link BoundsOperatorMain#heapAfterFullGc}) and prints one {@code [heap] key=value ...}
 * line on stdout. The cache stays referenced (the registry runs) while the heap is read. Without
 * {@code --master} the client reads the kubeconfig. Exits 0, or 1 if the cache does not hold
 * {@code --expect} Secrets or a metadata-only cache holds content.
 */
public final class MetadataHeapChild {

    static final String REPORT_PREFIX = "[heap] ";

    private MetadataHeapChild() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        String namespace = options.get("namespace");
        boolean metadataOnly = Boolean.parseBoolean(options.get("metadata-only"));
        int expected = Integer.parseInt(options.get("expect"));

        KubernetesClient client = ClientFactory.create(options.get("master"), namespace);
        InformerRegistry informers = ReconcilerCaches.informers(client);
        ResourceCache<Secret> cache = informers.register(CacheRequest.of(Secret.class)
                .namespaces(Set.of(namespace)).metadataOnly(metadataOnly));
        long startNanos = System.nanoTime();
        informers.start();
        informers.awaitSynced(Duration.ofMinutes(5));
        long syncMillis = (System.nanoTime() - startNanos) / 1_000_000;

        List<Secret> cached = cache.list();
        boolean contentCached = cached.stream().anyMatch(secret -> secret.getData() != null
                && !secret.getData().isEmpty());
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("cached", cached.size());
        figures.put("contentCached", contentCached);
        figures.put("syncMs", syncMillis);
        cached = null; // the list is the benchmark's, not the cache's: not to be counted
        figures.put("heapUsed", BoundsOperatorMain.heapAfterFullGc());
        StringBuilder line = new StringBuilder(REPORT_PREFIX.trim());
        figures.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        System.out.println(line);
        System.out.flush();
        // read after the measurement, so the informers are still running while the heap is read
        int held = cache.list().size();
        informers.stop();
        client.close();
        boolean asAsked = held == expected && (expected == 0 || contentCached != metadataOnly);
        System.exit(asAsked ? 0 : 1);
    }
}
