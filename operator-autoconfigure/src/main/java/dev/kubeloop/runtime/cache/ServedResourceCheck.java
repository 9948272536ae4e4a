package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails startup when a custom resource type a controller needs is not served by the API server,
 * typically because its CRD is not installed. Without this check the operator would start and
 * its informer would fail (or, on some servers, retry) on every list instead of saying what is
 * wrong.
 *
 * <p>Uses API discovery: one {@code GET /apis/<group>/<version>} per group-version, and looks for
 * the kind in the answer. Only {@link CustomResource} types are checked: built-in types are
 * always served by a conformant API server, and a wrong built-in version still fails the informer's
 * first list, which {@link InformerRegistry#awaitSynced} reports. (The fabric8 mock server in CRUD
 * mode answers discovery for the CRDs registered on it, but not for built-in groups, which is a
 * second reason not to query them.)
 *
 * <p>Stateless; one instance per startup.
 */
public final class ServedResourceCheck {

    private static final Logger log = LoggerFactory.getLogger(ServedResourceCheck.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(500);
    private static final Duration LONGEST_RETRY = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final Duration patience;

    /** A check that answers from the first discovery request: transient failures fail it too. */
    public ServedResourceCheck(KubernetesClient client) {
        this(client, Duration.ZERO);
    }

    /**
     * A check that retries discovery requests that failed for a reason that passes (no answer in
     * time, 429, 5xx) for up to {@code patience}: an API server slow or restarting while the
     * operator starts is not a configuration error, and failing would only crash-loop the pod.
     * Answers that do not pass (401, 403, 404, a type not served) decide at once.
     */
    public ServedResourceCheck(KubernetesClient client, Duration patience) {
        this.client = client;
        this.patience = patience;
    }

    /**
     * @param usersByType which controllers need each type, for the message
     * @throws KubeloopConfigurationException naming the first type that is not served
     */
    public void check(Map<Class<? extends HasMetadata>, Set<String>> usersByType) {
        Map<String, APIResourceList> discovered = new HashMap<>();
        for (Map.Entry<Class<? extends HasMetadata>, Set<String>> entry : new LinkedHashMap<>(usersByType).entrySet()) {
            Class<? extends HasMetadata> type = entry.getKey();
            if (!CustomResource.class.isAssignableFrom(type)) {
                continue;
            }
            String groupVersion = HasMetadata.getApiVersion(type);
            APIResourceList resources = discovered.computeIfAbsent(groupVersion, this::discoverPatiently);
            if (!serves(resources, HasMetadata.getKind(type))) {
                String crd = HasMetadata.getFullResourceName(type);
                throw new KubeloopConfigurationException("The API server at " + client.getMasterUrl()
                        + " does not serve " + HasMetadata.getKind(type) + " (" + groupVersion + "), which reconciler"
                        + (entry.getValue().size() > 1 ? "s " : " ") + String.join(", ", quoted(entry.getValue()))
                        + " need" + (entry.getValue().size() > 1 ? "" : "s") + ": the CustomResourceDefinition "
                        + crd + " is not installed, or does not serve version " + HasMetadata.getVersion(type) + ".",
                        "Install the CustomResourceDefinition " + crd + " (kubectl apply -f <crd>.yaml) before "
                                + "starting the operator, or check that the operator connects to the right cluster.");
            }
        }
    }

    /**
     * Whether the API server serves {@code type} now: always for built-in types; for custom
     * resources, one discovery request. Used to follow optional types as they come and go.
     *
     * @throws KubeloopConfigurationException if discovery itself fails
     */
    public boolean isServed(Class<? extends HasMetadata> type) {
        if (!CustomResource.class.isAssignableFrom(type)) {
            return true;
        }
        return serves(discover(HasMetadata.getApiVersion(type)), HasMetadata.getKind(type));
    }

    private APIResourceList discover(String groupVersion) {
        try {
            return client.getApiResources(groupVersion); // null when the group-version is not served (404)
        } catch (KubernetesClientException e) {
            throw unreachable(groupVersion, e, "");
        }
    }

    private APIResourceList discoverPatiently(String groupVersion) {
        long deadline = System.nanoTime() + patience.toNanos();
        Duration wait = FIRST_RETRY;
        for (int attempt = 1;; attempt++) {
            try {
                return client.getApiResources(groupVersion);
            } catch (KubernetesClientException e) {
                long left = deadline - System.nanoTime();
                if (!passes(e) || left <= 0) {
                    throw unreachable(groupVersion, e, attempt > 1 ? " (" + attempt + " attempts over "
                            + patience.toSeconds() + " s, kubeloop.cache-sync-timeout)" : "");
                }
                if (attempt == 1) {
                    log.warn("Cannot ask the API server at {} which resources it serves (GET /apis/{}): {}; "
                            + "retrying for up to {} s", client.getMasterUrl(), groupVersion, e.getMessage(),
                            Duration.ofNanos(left).toSeconds());
                }
                pause(Math.min(wait.toNanos(), left));
                wait = wait.multipliedBy(2).compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait.multipliedBy(2);
            }
        }
    }

    /** No answer (a timeout, a refused or reset connection), too many requests, or the server's own failure. */
    private static boolean passes(KubernetesClientException e) {
        return e.getCode() == 0 || e.getCode() == 429 || e.getCode() >= 500;
    }

    private static void pause(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubeloopConfigurationException("Interrupted while waiting for the API server's discovery",
                    "Nothing: the operator is stopping.", e);
        }
    }

    private KubeloopConfigurationException unreachable(String groupVersion, KubernetesClientException e,
            String attempts) {
        return new KubeloopConfigurationException("Cannot ask the API server at " + client.getMasterUrl()
                + " which resources it serves (GET /apis/" + groupVersion + "): " + e.getMessage() + attempts,
                "Check that the API server is reachable and that the kubeconfig (or the pod's service "
                        + "account) is the one the operator should use.", e);
    }

    private static boolean serves(APIResourceList resources, String kind) {
        if (resources == null || resources.getResources() == null) {
            return false;
        }
        for (APIResource resource : resources.getResources()) {
            // subresources (widgets/status) carry the parent's kind too; any match will do
            if (kind.equals(resource.getKind())) {
                return true;
            }
        }
        return false;
    }

    private static List<String> quoted(Set<String> names) {
        return names.stream().map(name -> "'" + name + "'").toList();
    }
}
