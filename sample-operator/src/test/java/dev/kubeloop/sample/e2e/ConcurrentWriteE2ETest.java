package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * Another writer changes a Website after the reconciler read it from its cache and before it
 * writes the status. The status goes out with server-side apply locked on the version it was
 * computed from (issue 26: a status from an older version must never land on a newer object, such
 * as one another replica took over): the API server refuses it with 409, the key goes round again
 * quietly (a conflict, not an error), and the next reconcile, on the newer object, writes the
 * status; the other writer's change stays.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(ReconcileHook.Config.class)
class ConcurrentWriteE2ETest {

    static final String TOUCHED = "e2e.kubeloop.dev/touched-by";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconcileHook hook;

    @Test
    void aStatusComputedBeforeAConcurrentChangeIsRefusedQuietlyAndTheChangeIsKept() {
        String name = "raced";
        hook.beforeNextReconcileOf(name, cached -> client.resources(Website.class).inNamespace(kit.namespace())
                .withName(name).edit(site -> {
                    Map<String, String> annotations = new HashMap<>();
                    if (site.getMetadata().getAnnotations() != null) {
                        annotations.putAll(site.getMetadata().getAnnotations());
                    }
                    annotations.put(TOUCHED, "another-writer");
                    site.getMetadata().setAnnotations(annotations);
                    return site;
                }));
        Map<ReconcileOutcome, Long> before = kit.metrics("website").outcomes();

        Website created = client.resource(Sites.website(kit.namespace(), name, "<p>raced</p>")).create();
        Website site = kit.awaitReconciled(created, Duration.ofSeconds(60));

        assertThat(hook.pending()).as("the other writer ran").isEmpty();
        Map<ReconcileOutcome, Long> after = kit.metrics("website").outcomes();
        assertThat(after.get(ReconcileOutcome.CONFLICT)).as("the stale status write refused")
                .isGreaterThan(before.get(ReconcileOutcome.CONFLICT));
        assertThat(after.get(ReconcileOutcome.ERROR)).as("errors").isEqualTo(before.get(ReconcileOutcome.ERROR));
        assertThat(site.getMetadata().getAnnotations()).as("the other writer's change survived")
                .containsEntry(TOUCHED, "another-writer");
        assertThat(site.getStatus().getObservedGeneration()).isEqualTo(site.getMetadata().getGeneration());
        assertThat(site.getMetadata().getGeneration()).as("status writes leave the generation alone").isEqualTo(1L);
        assertThat(site.getMetadata().getManagedFields()).as("who wrote what, as the API server records it")
                .anySatisfy(entry -> {
                    assertThat(entry.getManager()).isEqualTo("website");
                    assertThat(entry.getOperation()).isEqualTo("Apply");
                    // the API server records the subresource from Kubernetes 1.22 on; the fields say it too
                    assertThat(String.valueOf(entry.getFieldsV1().getAdditionalProperties()))
                            .startsWith("{f:status=").contains("f:observedGeneration", "f:conditions");
                })
                .anySatisfy(entry -> {
                    // the finalizer Kubeloop adds is recorded as the controller's too
                    assertThat(entry.getManager()).isEqualTo("website");
                    assertThat(entry.getOperation()).isEqualTo("Update");
                    assertThat(String.valueOf(entry.getFieldsV1().getAdditionalProperties())).contains("f:finalizers");
                });
        assertThat(kit.events(site)).noneMatch(event -> "Warning".equals(event.getType()));
        assertThat(Sites.index(client, kit.namespace())).containsKey(name);
    }
}
