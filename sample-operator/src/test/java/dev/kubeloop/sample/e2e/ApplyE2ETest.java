package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.controller.WriteOperation;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Server-side apply as the sample uses it, on a real API server: who owns which field
 * ({@code managedFields}), the operator taking back a field another manager forced (with the real
 * {@code kubectl}), a shared object written by one field manager per Website, and a steady state in
 * which reconciles send nothing at all.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class ApplyE2ETest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void theOperatorsFieldsAreItsOwnAndEachWebsiteOwnsItsEntryOfTheSharedIndex() {
        Website alpha = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "alpha", "a")).create());
        Website beta = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "beta", "b")).create());

        Deployment deployment = client.apps().deployments().inNamespace(kit.namespace()).withName("alpha").get();
        assertThat(deployment.getMetadata().getManagedFields()).anySatisfy(entry -> {
            assertThat(entry.getManager()).isEqualTo("website");
            assertThat(entry.getOperation()).isEqualTo("Apply");
            assertThat(fields(entry)).contains("f:replicas", "f:kubeloop.dev/applied-by", "f:ownerReferences");
        });
        ConfigMap index = client.configMaps().inNamespace(kit.namespace()).withName(Sites.INDEX).get();
        assertThat(index.getData()).containsOnlyKeys("alpha", "beta");
        assertThat(index.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager)
                .contains("website-index/alpha", "website-index/beta");
        assertThat(index.getMetadata().getManagedFields()).filteredOn(e -> e.getManager().equals("website-index/alpha"))
                .singleElement().satisfies(entry -> assertThat(fields(entry)).contains("f:alpha")
                        .doesNotContain("f:beta"));
        assertThat(index.getMetadata().getOwnerReferences()).as("not owned: it outlives the Websites").isEmpty();

        client.resource(beta).delete();

        kit.await("beta's entry is gone from the index", () -> !Sites.index(client, kit.namespace())
                .containsKey("beta"));
        assertThat(Sites.index(client, kit.namespace())).containsKey("alpha");
        assertThat(client.resource(alpha).get()).isNotNull();
    }

    @Test
    void aFieldAnotherManagerForcedIsTakenBackAndTheEventSaysItWasRepaired() throws Exception {
        Website site = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "forced", "f")).create());

        String manifest = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: forced
                  namespace: %s
                spec:
                  replicas: 5
                """.formatted(kit.namespace());
        // without --force-conflicts kubectl is refused: spec.replicas belongs to the operator's manager
        // --validate=false: kubectl checks a manifest as a whole object, and an apply configuration is partial
        Result refused = kubectl(manifest, "apply", "--server-side", "--field-manager=someone", "--validate=false",
                "-f", "-");
        assertThat(refused.exitCode()).as(refused.output()).isNotZero();
        assertThat(refused.output()).contains("conflict", "website", ".spec.replicas");
        Result forced = kubectl(manifest, "apply", "--server-side", "--field-manager=someone", "--force-conflicts",
                "--validate=false", "-f", "-");
        assertThat(forced.exitCode()).as(forced.output()).isZero();

        kit.await("the operator sets replicas back", () -> Integer.valueOf(1).equals(client.apps().deployments()
                .inNamespace(kit.namespace()).withName("forced").get().getSpec().getReplicas()));
        assertThat(kit.awaitEvent(site, "Repaired").getMessage())
                .isEqualTo("Deployment forced had been changed by someone else and was set back");
        Deployment repaired = client.apps().deployments().inNamespace(kit.namespace()).withName("forced").get();
        assertThat(repaired.getMetadata().getManagedFields()).filteredOn(e -> e.getManager().equals("website"))
                .singleElement().satisfies(entry -> assertThat(fields(entry)).contains("f:replicas"));
    }

    @Test
    void aSteadyStateReconcileSendsNoWriteAtAll() {
        Website site = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "steady", "s")).create());
        kit.awaitIdle();
        List<String> versionsBefore = versions(site);
        ControllerStatus.Writes before = kit.metrics("website").writes();

        for (int i = 0; i < 3; i++) {
            kit.reconcile(site);
            kit.awaitIdle();
        }

        ControllerStatus.Writes after = kit.metrics("website").writes();
        assertThat(after.sent()).as("requests sent by the 3 reconciles").isEqualTo(before.sent());
        // content, Deployment, Service, index entry, status: skipped, each of the 3 times
        assertThat(after.skipped().get(WriteOperation.APPLY) - before.skipped().get(WriteOperation.APPLY))
                .isEqualTo(3 * 4);
        assertThat(after.skipped().get(WriteOperation.APPLY_STATUS) - before.skipped().get(WriteOperation.APPLY_STATUS))
                .isEqualTo(3);
        assertThat(versions(site)).as("resourceVersions of the Website, its objects and the index").isEqualTo(
                versionsBefore);
    }

    private List<String> versions(Website site) {
        String namespace = kit.namespace();
        String name = site.getMetadata().getName();
        List<HasMetadata> objects = new ArrayList<>();
        objects.add(client.resource(site).get());
        objects.add(client.configMaps().inNamespace(namespace).withName(WebsiteResources.contentName(site)).get());
        objects.add(client.apps().deployments().inNamespace(namespace).withName(name).get());
        objects.add(client.services().inNamespace(namespace).withName(name).get());
        objects.add(client.configMaps().inNamespace(namespace).withName(Sites.INDEX).get());
        return objects.stream().map(o -> o.getKind() + " " + o.getMetadata().getName() + "@"
                + o.getMetadata().getResourceVersion()).toList();
    }

    private static String fields(ManagedFieldsEntry entry) {
        return String.valueOf(entry.getFieldsV1().getAdditionalProperties());
    }

    private record Result(int exitCode, String output) {
    }

    /** Runs the real kubectl against the cluster KUBECONFIG points at (the e2e profile's). */
    private static Result kubectl(String stdin, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
        return new Result(process.exitValue(), output);
    }
}
