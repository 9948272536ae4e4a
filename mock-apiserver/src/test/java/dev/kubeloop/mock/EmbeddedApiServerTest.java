package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded API server answers discovery as a real one does, so that fabric8 and the real
 * {@code kubectl} (tests skipped when it is not on the PATH) name its built-in and custom types.
 */
class EmbeddedApiServerTest {

    static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: gizmos.example.com
            spec:
              group: example.com
              scope: Namespaced
              names: {kind: Gizmo, plural: gizmos, singular: gizmo, shortNames: [gz]}
              versions:
                - name: v1
                  served: true
                  storage: true
                  subresources: {status: {}}
                  schema:
                    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                - name: v1alpha1
                  served: true
                  storage: false
                  schema:
                    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
            ---
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: clusterthings.example.com
            spec:
              group: example.com
              scope: Cluster
              names: {kind: ClusterThing, plural: clusterthings, singular: clusterthing}
              versions:
                - name: v1
                  served: true
                  storage: true
                  schema:
                    openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
            """;

    private static final ResourceDefinitionContext GIZMOS = new ResourceDefinitionContext.Builder()
            .withGroup("example.com").withVersion("v1").withPlural("gizmos").withKind("Gizmo").withNamespaced(true)
            .build();

    private EmbeddedApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start().createAll(CRD);
        client = server.client();
        client.genericKubernetesResources(GIZMOS).inNamespace("demo").resource(gizmo("one")).create();
        client.configMaps().inNamespace("demo").resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().addToData("a", "1").build()).create();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void discoveryListsTheBuiltInGroupsAndTheGroupsOfTheStoredCrds() {
        List<APIGroup> groups = client.getApiGroups().getGroups();

        assertThat(groups).extracting(APIGroup::getName).contains("apps", "coordination.k8s.io", "example.com");
        APIGroup example = groups.stream().filter(g -> g.getName().equals("example.com")).findFirst().orElseThrow();
        assertThat(example.getVersions()).extracting(v -> v.getGroupVersion())
                .containsExactly("example.com/v1", "example.com/v1alpha1");
        assertThat(example.getPreferredVersion().getVersion()).isEqualTo("v1"); // the storage version
    }

    @Test
    void aGroupVersionListsItsResourcesWithScopeShortNamesAndStatus() {
        List<APIResource> resources = client.getApiResources("example.com/v1").getResources();

        assertThat(resources).extracting(APIResource::getName)
                .containsExactly("gizmos", "gizmos/status", "clusterthings");
        APIResource gizmos = resources.get(0);
        assertThat(gizmos.getKind()).isEqualTo("Gizmo");
        assertThat(gizmos.getNamespaced()).isTrue();
        assertThat(gizmos.getShortNames()).containsExactly("gz");
        assertThat(gizmos.getVerbs()).contains("get", "list", "watch", "create", "patch", "delete");
        assertThat(resources.get(2).getNamespaced()).isFalse();
        assertThat(client.getApiResources("example.com/v1alpha1").getResources()).extracting(APIResource::getName)
                .containsExactly("gizmos"); // no status subresource in v1alpha1
        assertThat(client.getApiResources("v1").getResources()).extracting(APIResource::getName)
                .contains("configmaps", "secrets", "services", "events", "namespaces");
        assertThat(client.getApiResources("apps/v1").getResources()).extracting(APIResource::getName)
                .contains("deployments");
    }

    @Test
    void anUnknownGroupVersionIsNotServedAndObjectsStillAre() {
        assertThat(client.getApiResources("example.com/v2")).isNull(); // 404, as fabric8 reads it
        assertThat(client.getApiResources("nothing.example.org/v1")).isNull();

        assertThat(client.genericKubernetesResources(GIZMOS).inNamespace("demo").list().getItems())
                .extracting(g -> g.getMetadata().getName()).containsExactly("one");
        assertThat(client.configMaps().inNamespace("demo").withName("settings").get().getData())
                .containsEntry("a", "1");
    }

    @Test
    void aCrdCreatedLaterIsDiscoveredAtOnce() {
        client.load(new java.io.ByteArrayInputStream(CRD.replace("gizmos", "widgets").replace("Gizmo", "Widget")
                .replace("gizmo", "widget").replace("gz", "wd").replace("example.com", "later.example.com")
                .getBytes(StandardCharsets.UTF_8))).items().forEach(crd -> client.resource(crd).create());

        assertThat(client.getApiResources("later.example.com/v1").getResources()).extracting(APIResource::getName)
                .contains("widgets");
    }

    @Test
    void kubectlGetsCustomAndBuiltInResources() {
        assumeKubectl();

        Run gizmos = kubectl(null, "get", "gizmos", "-n", "demo");
        assertThat(gizmos.exitCode()).as(gizmos.stderr()).isZero();
        assertThat(gizmos.stdout()).contains("NAME", "one");
        assertThat(kubectl(null, "get", "gz", "one", "-n", "demo", "-o", "jsonpath={.spec.size}").stdout())
                .isEqualTo("3");
        assertThat(kubectl(null, "get", "cm", "-n", "demo").stdout()).contains("settings");
        assertThat(kubectl(null, "api-resources", "--api-group=example.com").stdout())
                .contains("gizmos", "gz", "Gizmo", "clusterthings");
    }

    @Test
    void kubectlAppliesServerSideAndDeletes() {
        assumeKubectl();
        String manifest = """
                apiVersion: example.com/v1
                kind: Gizmo
                metadata: {name: two, namespace: demo}
                spec: {size: 5}
                """;

        Run applied = kubectl(manifest, "apply", "--server-side", "-f", "-");
        assertThat(applied.exitCode()).as(applied.stderr()).isZero();
        assertThat(applied.stdout()).contains("gizmo.example.com/two serverside-applied");
        assertThat(client.genericKubernetesResources(GIZMOS).inNamespace("demo").withName("two").get()
                .<Integer>get("spec", "size")).isEqualTo(5);

        Run reapplied = kubectl(manifest.replace("size: 5", "size: 6"), "apply", "-f", "-"); // client-side
        assertThat(reapplied.exitCode()).as(reapplied.stderr()).isZero();
        assertThat(client.genericKubernetesResources(GIZMOS).inNamespace("demo").withName("two").get()
                .<Integer>get("spec", "size")).isEqualTo(6);
        Run configMap = kubectl("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: created, namespace: demo}
                data: {b: "2"}
                """, "apply", "-f", "-");
        assertThat(configMap.exitCode()).as(configMap.stderr()).isZero();
        assertThat(client.configMaps().inNamespace("demo").withName("created").get().getData())
                .containsEntry("b", "2");

        Run deleted = kubectl(null, "delete", "gizmo", "two", "-n", "demo");
        assertThat(deleted.exitCode()).as(deleted.stderr()).isZero();
        assertThat(client.genericKubernetesResources(GIZMOS).inNamespace("demo").withName("two").get()).isNull();
    }

    private static GenericKubernetesResource gizmo(String name) {
        GenericKubernetesResource gizmo = new GenericKubernetesResource();
        gizmo.setApiVersion("example.com/v1");
        gizmo.setKind("Gizmo");
        gizmo.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        gizmo.setAdditionalProperty("spec", java.util.Map.of("size", 3));
        return gizmo;
    }

    record Run(int exitCode, String stdout, String stderr) {
    }

    static void assumeKubectl() {
        String path = System.getenv().getOrDefault("PATH", "");
        assumeTrue(Arrays.stream(path.split(File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, "kubectl"))),
                "Skipped: kubectl is not on the PATH");
    }

    /** {@code kubectl --server <this server> <arguments>}, as a user types it, with no kubeconfig at all. */
    private Run kubectl(String stdin, String... arguments) {
        List<String> command = new ArrayList<>(List.of("kubectl", "--server", server.url()));
        command.addAll(List.of(arguments));
        try {
            Path home = Files.createTempDirectory("kubectl-home");
            Path in = Files.writeString(home.resolve("in.yaml"), stdin == null ? "" : stdin);
            ProcessBuilder builder = new ProcessBuilder(command).redirectInput(in.toFile())
                    .redirectOutput(home.resolve("out").toFile()).redirectError(home.resolve("err").toFile());
            builder.environment().put("HOME", home.toString()); // no ~/.kube/config, no discovery cache
            builder.environment().remove("KUBECONFIG");
            Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
            }
            return new Run(process.exitValue(), Files.readString(home.resolve("out")),
                    Files.readString(home.resolve("err")));
        } catch (IOException e) {
            throw new AssertionError("Cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted running " + command, e);
        }
    }
}
