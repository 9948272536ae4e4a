package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.ControllerStatus.RecentError;
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
 * A real 409: another writer changes a Website after the reconciler read it from its cache and
 * before it writes the status. The API server rejects the stale status patch (it is locked on the
 * cached resourceVersion), the runtime requeues quietly, and the next reconcile, on the newer
 * object, converges without overwriting the other writer's change.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(ReconcileHook.Config.class)
class ConflictE2ETest {

    static final String TOUCHED = "e2e.kubeloop.dev/touched-by";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconcileHook hook;

    @Test
    void aStaleStatusWriteGetsA409AndIsRequeuedQuietlyUntilItConverges() {
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
        assertThat(after.get(ReconcileOutcome.CONFLICT)).as("conflicts").isGreaterThan(before.get(ReconcileOutcome.CONFLICT));
        assertThat(after.get(ReconcileOutcome.ERROR)).as("errors").isEqualTo(before.get(ReconcileOutcome.ERROR));
        // every failed reconcile of the site was a quiet 409 (the shared index ConfigMap can race too),
        // and one of them was the stale status patch
        assertThat(kit.metrics("website").recentErrors()).filteredOn(e -> e.key().equals(ObjectKey.of(site)))
                .allSatisfy(error -> assertThat(error.outcome()).isEqualTo(ReconcileOutcome.CONFLICT))
                .extracting(RecentError::message)
                .allSatisfy(message -> assertThat(message).contains("code=409"))
                .anySatisfy(message -> assertThat(message).contains("PATCH").contains("/websites/" + name + "/status")
                        .contains("the object has been modified"));

        assertThat(site.getMetadata().getAnnotations()).as("the other writer's change survived")
                .containsEntry(TOUCHED, "another-writer");
        assertThat(site.getStatus().getObservedGeneration()).isEqualTo(site.getMetadata().getGeneration());
        assertThat(site.getMetadata().getGeneration()).as("status writes leave the generation alone").isEqualTo(1L);
        assertThat(kit.events(site)).as("a conflict is not worth a Warning")
                .noneMatch(event -> "Warning".equals(event.getType()));
        assertThat(Sites.index(client, kit.namespace())).containsKey(name);
    }
}
