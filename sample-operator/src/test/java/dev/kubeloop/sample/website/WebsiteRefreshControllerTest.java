package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The sample's external trigger: a POST reconciles one Website though nothing changed in Kubernetes. */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off", webEnvironment = WebEnvironment.RANDOM_PORT)
class WebsiteRefreshControllerTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

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

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + port + "/websites/" + kit.namespace() + "/news/refresh"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).contains(ObjectKey.of(kit.namespace(), "news").toString());
        kit.await("one more reconcile", () -> kit.metrics("website").outcomes().get(ReconcileOutcome.SUCCESS) > before);
    }
}
