package dev.kubeloop.benchmarks.compare.model;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the objects the harness creates. They carry realistic metadata (a few labels, the
 * {@code kubectl.kubernetes.io/last-applied-configuration} annotation, two managedFields entries),
 * because what a framework keeps per cached object is part of what the memory scenario measures.
 */
public final class BenchObjects {

    private BenchObjects() {
    }

    /** {@code bench-00042}: sortable, so the API server lists in creation order. */
    public static String name(int index) {
        return String.format("bench-%05d", index);
    }

    /** A new object as a client would send it (no uid, resourceVersion or generation). */
    public static BenchResource create(String namespace, String name) {
        BenchResource resource = new BenchResource();
        resource.setMetadata(new ObjectMetaBuilder()
                .withNamespace(namespace)
                .withName(name)
                .withLabels(labels(name))
                .withAnnotations(annotations(namespace, name))
                .withManagedFields(managedFields())
                .build());
        resource.setSpec(new BenchSpec(0, 0));
        return resource;
    }

    private static Map<String, String> labels(String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "bench");
        labels.put("app.kubernetes.io/instance", name);
        labels.put("app.kubernetes.io/part-of", "kubeloop-benchmarks");
        labels.put("app.kubernetes.io/managed-by", "kubectl");
        return labels;
    }

    private static Map<String, String> annotations(String namespace, String name) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("kubectl.kubernetes.io/last-applied-configuration",
                "{\"apiVersion\":\"bench.kubeloop.dev/v1\",\"kind\":\"BenchResource\",\"metadata\":{"
                        + "\"annotations\":{\"bench.kubeloop.dev/owner\":\"team-platform\"},"
                        + "\"labels\":{\"app.kubernetes.io/instance\":\"" + name + "\","
                        + "\"app.kubernetes.io/managed-by\":\"kubectl\",\"app.kubernetes.io/name\":\"bench\","
                        + "\"app.kubernetes.io/part-of\":\"kubeloop-benchmarks\"},"
                        + "\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\"},"
                        + "\"spec\":{\"stampNanos\":0,\"value\":0}}\n");
        annotations.put("bench.kubeloop.dev/owner", "team-platform");
        return annotations;
    }

    /** What kubectl apply and a status-writing controller leave behind on a real API server. */
    private static List<ManagedFieldsEntry> managedFields() {
        return List.of(
                managedFieldsEntry("kubectl-client-side-apply", null, Map.of(
                        "f:metadata", Map.of(
                                "f:annotations", Map.of(
                                        ".", Map.of(),
                                        "f:bench.kubeloop.dev/owner", Map.of(),
                                        "f:kubectl.kubernetes.io/last-applied-configuration", Map.of()),
                                "f:labels", Map.of(
                                        ".", Map.of(),
                                        "f:app.kubernetes.io/instance", Map.of(),
                                        "f:app.kubernetes.io/managed-by", Map.of(),
                                        "f:app.kubernetes.io/name", Map.of(),
                                        "f:app.kubernetes.io/part-of", Map.of())),
                        "f:spec", Map.of(".", Map.of(), "f:stampNanos", Map.of(), "f:value", Map.of()))),
                managedFieldsEntry("bench-operator", "status", Map.of(
                        "f:status", Map.of(".", Map.of(), "f:observedGeneration", Map.of()))));
    }

    private static ManagedFieldsEntry managedFieldsEntry(String manager, String subresource, Map<String, Object> fields) {
        FieldsV1 fieldsV1 = new FieldsV1();
        fields.forEach(fieldsV1::setAdditionalProperty);
        return new ManagedFieldsEntryBuilder()
                .withApiVersion(BenchResource.GROUP + "/" + BenchResource.VERSION)
                .withFieldsType("FieldsV1")
                .withFieldsV1(fieldsV1)
                .withManager(manager)
                .withOperation("Update")
                .withSubresource(subresource)
                .withTime("2026-01-01T00:00:00Z")
                .build();
    }
}
