package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An RFC 6902 JSON patch against one object, sent as one PATCH request.
 *
 * <p>Optimistic locking: {@link #expectResourceVersion} adds a replace of
 * {@code metadata.resourceVersion}; the API server rejects the update with 409 Conflict when the
 * stored object has moved on, exactly as for an update. So the patch can be computed from a cached
 * (possibly stale) object without a GET first.
 *
 * <p>Why not the fabric8 conveniences: {@code resource(...).subresource("status").patch(ctx, String)}
 * without an item GETs the object before every PATCH, and {@code patchStatus()} sends the whole
 * object as a merge patch, which cannot remove a status field. {@code client.resource(item)}
 * carries the item, so fabric8 takes name and namespace from it and sends one request; the item is
 * a {@link WriteTargets} stub, which fabric8 clones instead of the whole object.
 * Serialization uses fabric8's own {@code KubernetesSerialization}, never an application's
 * Jackson mapper. Not thread-safe; build, send, discard.
 */
public final class JsonPatch {

    private final List<Map<String, Object>> operations = new ArrayList<>();
    private String fieldManager;

    /** The field manager the API server records for the patched fields; default: the client's. */
    public JsonPatch fieldManager(String manager) {
        this.fieldManager = manager;
        return this;
    }

    /** Fail with 409 unless the stored object still has {@code object}'s resourceVersion (if it has one). */
    public JsonPatch expectResourceVersion(HasMetadata object) {
        String resourceVersion = object.getMetadata().getResourceVersion();
        if (resourceVersion != null && !resourceVersion.isEmpty()) {
            operation("replace", "/metadata/resourceVersion", resourceVersion);
        }
        return this;
    }

    public JsonPatch add(String path, Object value) {
        return operation("add", path, value);
    }

    public JsonPatch remove(String path) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", "remove");
        operation.put("path", path);
        operations.add(operation);
        return this;
    }

    private JsonPatch operation(String op, String path, Object value) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", op);
        operation.put("path", path);
        operation.put("value", value);
        operations.add(operation);
        return this;
    }

    /** Sends the patch to the object itself; returns the object as stored. */
    public <T extends HasMetadata> T applyTo(KubernetesClient client, T object) {
        return client.resource(WriteTargets.of(object)).patch(context(), toJson(client));
    }

    /** Sends the patch to the object's {@code /status} subresource; returns the object as stored. */
    public <T extends HasMetadata> T applyToStatus(KubernetesClient client, T object) {
        return client.resource(WriteTargets.of(object)).subresource("status").patch(context(), toJson(client));
    }

    private PatchContext context() {
        PatchContext context = PatchContext.of(PatchType.JSON);
        context.setFieldManager(fieldManager);
        return context;
    }

    public String toJson(KubernetesClient client) {
        return client.getKubernetesSerialization().asJson(operations);
    }
}
