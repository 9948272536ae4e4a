package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.FailureReason;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Asks the API server why an informer cannot list and watch: one list of a single object in the
 * informer's scope, answered at once. fabric8 keeps the reason of its own failed attempts to
 * itself, and retries each request for up to ~20 s before it fails, so the probe has a client of
 * its own that does not retry (same configuration otherwise), and reads the answer as generic
 * objects (nothing to deserialize into the type). Costs one request each time an informer starts
 * failing.
 *
 * <p>State ownership: the probe client is created on first use under this object's monitor and
 * closed by {@link #close()}; used from the monitor's thread only.
 */
final class ListWatchProbe implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 5_000;

    private final KubernetesClient client;
    // guarded by this
    private KubernetesClient probeClient;

    ListWatchProbe(KubernetesClient client) {
        this.client = client;
    }

    /** Why listing {@code key}'s scope fails now, e.g. {@code HTTP 404 NotFound: ...}; or that the list works. */
    String reason(InformerKey key) {
        try {
            KubernetesClient probe = probeClient();
            var resources = probe.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(key.type()));
            FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
                    Resource<GenericKubernetesResource>> scoped = key.namespace() == null ? resources.inAnyNamespace()
                            : resources.inNamespace(key.namespace());
            scoped.list(new ListOptionsBuilder().withLimit(1L).build());
            return "the watch does not reconnect (a list succeeds)";
        } catch (RuntimeException e) {
            return FailureReason.of(e);
        }
    }

    private synchronized KubernetesClient probeClient() {
        if (probeClient == null) {
            probeClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
                    .withRequestRetryBackoffLimit(0).withRequestTimeout(TIMEOUT_MILLIS)
                    .withConnectionTimeout(TIMEOUT_MILLIS).build())
                    .withKubernetesSerialization(client.getKubernetesSerialization()).build();
        }
        return probeClient;
    }

    @Override
    public synchronized void close() {
        if (probeClient != null) {
            probeClient.close();
            probeClient = null;
        }
    }
}
