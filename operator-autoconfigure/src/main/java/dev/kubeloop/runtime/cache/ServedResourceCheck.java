package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    private final KubernetesClient client;

    public ServedResourceCheck(KubernetesClient client) {
        this.client = client;
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
            APIResourceList resources = discovered.computeIfAbsent(groupVersion, this::discover);
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
            throw new KubeloopConfigurationException("Cannot ask the API server at " + client.getMasterUrl()
                    + " which resources it serves (GET /apis/" + groupVersion + "): " + e.getMessage(),
                    "Check that the API server is reachable and that the kubeconfig (or the pod's service "
                            + "account) is the one the operator should use.", e);
        }
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
