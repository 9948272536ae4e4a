package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The sample's external trigger, switched on: a POST reconciles one Website though nothing changed
 * in Kubernetes; keys of objects the operator does not reconcile queue nothing.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", WebsiteRefreshController.ENABLED + "=true"},
        webEnvironment = WebEnvironment.RANDOM_PORT)
class WebsiteRefreshControllerTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ControllerManager manager;

    @LocalServerPort
    int port;

    @Test
    void aRefreshRequestReconcilesTheWebsiteOnceMore() throws Exception {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName("news").build());
        site.setSpec(new WebsiteSpec());
        kit.awaitReconciled(client.resource(site).create());
        kit.awaitIdle();
        long before = kit.metrics("website").outcomes().get(ReconcileOutcome.SUCCESS);

        HttpResponse<String> response = refresh(port, kit.namespace(), "news");

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).contains(ObjectKey.of(kit.namespace(), "news").toString());
        kit.await("one more reconcile", () -> kit.metrics("website").outcomes().get(ReconcileOutcome.SUCCESS) > before);
    }

    /** The review's probe: any key, kube-system's included, was a 202. */
    @Test
    void keysOfObjectsTheOperatorDoesNotReconcileAreRefusedAndNothingIsQueued() throws Exception {
        for (ObjectKey key : List.of(ObjectKey.of("kube-system", "anything"), ObjectKey.of(kit.namespace(), "absent"))) {
            HttpResponse<String> response = refresh(port, key.namespace(), key.name());

            assertThat(response.statusCode()).as("%s", key).isEqualTo(404);
            assertThat(manager.controller("website").orElseThrow().state(key)).as("never queued")
                    .isEqualTo(ItemState.ABSENT);
        }
    }

    static HttpResponse<String> refresh(int port, String namespace, String name) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + port + "/websites/" + namespace + "/" + name + "/refresh"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
