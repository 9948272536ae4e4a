package dev.kubeloop.sample;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * A small, harmless controller: every ConfigMap labelled {@code kubeloop.dev/sample=true} gets an
 * annotation {@code kubeloop.dev/data-hash} holding the SHA-256 of its data, kept up to date when the
 * data changes. Level-triggered: it compares the hash of what is there with the annotation and
 * writes only when they differ (one JSON merge patch of the annotation, nothing else).
 *
 * <p>Off unless {@code sample.configmap-stamper.enabled=true}, because it needs a cluster (or the
 * test's mock API server) to list ConfigMaps; the sample's Website operator replaces it as the
 * sample's main controller. ConfigMaps have no generation, so a data change is visible only with
 * {@code generationAware = false}; its own annotation write comes back as an update and finds the
 * hash current.
 */
@Reconciler(name = "configmap-stamper", labelSelector = ConfigMapStamper.SELECTOR, generationAware = false)
@ConditionalOnBooleanProperty("sample.configmap-stamper.enabled")
public class ConfigMapStamper implements ResourceReconciler<ConfigMap> {

    /** The label that opts a ConfigMap in. */
    public static final String LABEL = "kubeloop.dev/sample";
    static final String SELECTOR = LABEL + "=true";
    /** The annotation written. */
    public static final String ANNOTATION = "kubeloop.dev/data-hash";

    @Override
    public Result reconcile(ConfigMap configMap, ReconcileContext<ConfigMap> context) {
        String hash = hash(configMap);
        Map<String, String> annotations = configMap.getMetadata().getAnnotations();
        if (annotations != null && hash.equals(annotations.get(ANNOTATION))) {
            return Result.done();
        }
        String patch = "{\"metadata\":{\"annotations\":{\"" + ANNOTATION + "\":\"" + hash + "\"}}}";
        context.client().configMaps().inNamespace(configMap.getMetadata().getNamespace())
                .withName(configMap.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        context.log().info("Data hash annotated: {}", hash);
        return Result.done();
    }

    /** SHA-256 over the sorted keys and values of data and binaryData. */
    static String hash(ConfigMap configMap) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        update(digest, "data", configMap.getData());
        update(digest, "binaryData", configMap.getBinaryData());
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, String section, Map<String, String> entries) {
        digest.update(section.getBytes(StandardCharsets.UTF_8));
        if (entries == null) {
            return;
        }
        new TreeMap<>(entries).forEach((key, value) -> {
            digest.update((byte) 0);
            digest.update(key.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
        });
    }
}
