package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 27 item 10 on a real API server, with the sample's {@code errorStatus} and
 * {@code max-attempts: 2}: a Website whose ConfigMap name a user's ConfigMap holds fails twice,
 * says why in Ready (its {@code errorStatus}), then rests: no retry pending, {@code Stalled=True}
 * applied next to the sample's own conditions on the {@code /status} subresource, one
 * {@code RetriesExhausted} Warning event. Deleting the user's ConfigMap wakes it (the owned
 * ConfigMaps' informer sees the object that was in its way), and the reconcile that then succeeds
 * sets {@code Stalled=False}.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.reconcilers.website.max-attempts=2"})
class RetriesExhaustedE2ETest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aWebsiteThatAlwaysFailsRestsWithStalledUntilWhatIsInItsWayGoes() {
        Website wanted = Sites.website(kit.namespace(), "payments", "<h1>pay</h1>");
        String contentName = WebsiteResources.contentName(wanted); // the page's ConfigMap is named by the page
        client.resource(new ConfigMapBuilder().withNewMetadata().withName(contentName)
                .withNamespace(kit.namespace()).endMetadata().addToData("settings", "theirs").build()).create();
        Controller<?> controller = kit.controller("website");
        ObjectKey key = ObjectKey.of(kit.namespace(), "payments");

        Website site = client.resource(wanted).create();

        kit.await("the Website rests", () -> controller.count(ReconcileOutcome.RETRIES_EXHAUSTED) == 1
                && controller.state(key) != ItemState.PROCESSING);
        assertThat(controller.state(key)).as("no retry pending").isEqualTo(ItemState.ABSENT);
        assertThat(controller.resting(key)).isTrue();
        assertThat(kit.awaitEvent(site, "RetriesExhausted").getMessage())
                .contains("Reconcile failed 2 times in a row", "ConfigMap " + contentName + " exists");
        kit.await("Stalled=True next to Ready=False ForeignObject", () ->
                condition(site, "Stalled").filter(c -> "True".equals(c.getStatus())).isPresent()
                        && condition(site, "Ready").filter(c -> "ForeignObject".equals(c.getReason())).isPresent());
        assertThat(condition(site, "Stalled").orElseThrow().getReason()).isEqualTo("RetriesExhausted");

        client.configMaps().inNamespace(kit.namespace()).withName(contentName).delete();

        kit.await("Stalled=False", () -> condition(site, "Stalled")
                .filter(c -> "False".equals(c.getStatus()) && "Recovered".equals(c.getReason())).isPresent());
        Website served = kit.awaitReconciled(site);
        assertThat(served.getStatus().condition("Ready").orElseThrow().getReason()).isNotEqualTo("ForeignObject");
        assertThat(controller.resting(key)).isFalse();
    }

    private Optional<Condition> condition(Website site, String type) {
        Website latest = client.resource(site).get();
        return latest == null || latest.getStatus() == null ? Optional.empty() : latest.getStatus().condition(type);
    }
}
