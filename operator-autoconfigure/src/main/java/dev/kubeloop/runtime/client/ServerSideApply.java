package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Server-side apply requests, one PATCH each ({@code application/apply-patch+yaml}, JSON being
 * YAML), with a field manager and {@code force=true}.
 *
 * <p>The body is what the caller wants, never what the server keeps for itself: no
 * resourceVersion (an apply of an object is not locked on one; that is why it does not conflict
 * with a concurrent change; the primary's status is, see {@link #applyStatus}), uid, creationTimestamp, generation or managedFields. Serialization is
 * fabric8's own, never an application's mapper. Stateless.
 */
public final class ServerSideApply {

    private ServerSideApply() {
    }

    /**
     * The apply body of {@code desired}: a copy without the fields the server owns. Its JSON is
     * also what {@link #fingerprint} hashes.
     */
    public static <T extends HasMetadata> T body(KubernetesSerialization serialization, T desired) {
        T body = ResourceCopies.deepCopy(serialization, desired);
        ObjectMeta metadata = body.getMetadata();
        metadata.setResourceVersion(null);
        metadata.setUid(null);
        metadata.setCreationTimestamp(null);
        metadata.setGeneration(null);
        metadata.setManagedFields(null);
        metadata.setSelfLink(null);
        return body;
    }

    /** The JSON of an apply body: what is sent, and what tells two applies apart. */
    public static String json(KubernetesSerialization serialization, HasMetadata body) {
        return serialization.asJson(body);
    }

    /** Applies {@code json} (the body of {@code target}) as {@code fieldManager}; returns the object as stored. */
    public static <T extends HasMetadata> T apply(KubernetesClient client, T target, String json, String fieldManager) {
        return client.resource(WriteTargets.of(target)).patch(context(fieldManager), json);
    }

    /**
     * Applies {@code status} to {@code target}'s {@code /status} subresource as {@code fieldManager}:
     * the body names the object and carries the status, nothing else but {@code resourceVersion}
     * when given. The API server treats a resourceVersion in an apply body as a precondition, as
     * for an update: 409 Conflict unless the object is still at that version, so a status computed
     * from one version never lands on a newer one.
     */
    public static <T extends HasMetadata> T applyStatus(KubernetesClient client, T target, Object status,
            String fieldManager, String resourceVersion) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", target.getMetadata().getName());
        if (target.getMetadata().getNamespace() != null) {
            metadata.put("namespace", target.getMetadata().getNamespace());
        }
        if (resourceVersion != null && !resourceVersion.isEmpty()) {
            metadata.put("resourceVersion", resourceVersion);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("apiVersion", target.getApiVersion());
        body.put("kind", target.getKind());
        body.put("metadata", metadata);
        body.put("status", status);
        String json = client.getKubernetesSerialization().asJson(body);
        return client.resource(WriteTargets.of(target)).subresource("status").patch(context(fieldManager), json);
    }

    private static PatchContext context(String fieldManager) {
        PatchContext context = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
        context.setFieldManager(fieldManager);
        // a controller owns what it applies: another manager's value is drift to repair, not a reason to stop
        context.setForce(true);
        return context;
    }
}
