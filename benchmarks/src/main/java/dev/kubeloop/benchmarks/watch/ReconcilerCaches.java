package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.cache.InformerRegistry;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The informer registry a benchmark's reconciler caches on, as {@code ControllerManager} makes it;
 * the reconciler's caches themselves are the runtime's ({@code ControllerCaches}). Stateless.
 */
final class ReconcilerCaches {

    private ReconcilerCaches() {
    }

    /**
     * An informer registry as {@code ControllerManager} makes it, with the settings' defaults
     * (managedFields stripped, lists in one response); failures and Warning Events go nowhere.
     */
    static InformerRegistry informers(KubernetesClient client) {
        return new InformerRegistry(client, Settings.STRIP_MANAGED_FIELDS.defaultValue(),
                Settings.INFORMER_LIST_PAGE_SIZE.defaultValue(), Settings.OPTIONAL_TYPE_POLL_INTERVAL.defaultValue(),
                (informer, error) -> System.err.println("informer failed: " + informer + ": " + error),
                new EventRecorder() {
                    @Override
                    public void normal(HasMetadata regarding, String reason, String message) {
                    }

                    @Override
                    public void warning(HasMetadata regarding, String reason, String message) {
                    }
                }, null); // not sharded
    }
}
