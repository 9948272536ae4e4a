package dev.kubeloop.benchmarks.compare.model;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceStatus;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import java.util.Map;

/**
 * The CRD of {@link BenchResource}, with the status subresource (so status writes never bump the
 * generation and spec writes never touch the status) and a structural schema, which a real
 * kube-apiserver requires. Creating it on the fabric8 mock server in CRUD mode is what makes the
 * mock honour the status subresource for this type.
 */
public final class BenchCrd {

    private BenchCrd() {
    }

    public static String name() {
        return BenchResource.PLURAL + "." + BenchResource.GROUP;
    }

    public static CustomResourceDefinition definition() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(name()).endMetadata()
                .withNewSpec()
                .withGroup(BenchResource.GROUP)
                .withScope("Namespaced")
                .withNewNames()
                .withKind(BenchResource.KIND)
                .withListKind(BenchResource.KIND + "List")
                .withPlural(BenchResource.PLURAL)
                .withSingular("benchresource")
                .endNames()
                .addNewVersion()
                .withName(BenchResource.VERSION)
                .withServed(true)
                .withStorage(true)
                .withNewSubresources().withStatus(new CustomResourceSubresourceStatus()).endSubresources()
                .withNewSchema().withOpenAPIV3Schema(schema()).endSchema()
                .endVersion()
                .endSpec()
                .build();
    }

    private static JSONSchemaProps schema() {
        JSONSchemaProps spec = object(Map.of("value", integer(), "stampNanos", integer()));
        JSONSchemaProps status = object(Map.of("observedGeneration", integer()));
        return object(Map.of("spec", spec, "status", status));
    }

    private static JSONSchemaProps object(Map<String, JSONSchemaProps> properties) {
        return new JSONSchemaPropsBuilder().withType("object").withProperties(properties).build();
    }

    private static JSONSchemaProps integer() {
        return new JSONSchemaPropsBuilder().withType("integer").withFormat("int64").build();
    }
}
