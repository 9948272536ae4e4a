package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * By default the sample does not watch Secrets (the chart then grants nothing on them; RBAC cannot
 * grant "metadata only"): a Website naming a TLS Secret is served over HTTPS with that Secret mounted
 * by name, whether or not the operator could see it.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class WebsiteTlsUnwatchedTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void withoutTheSecretWatchTheSiteMountsTheNamedSecretAndNoSecretIsListed() {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName("shop").build());
        site.setSpec(new WebsiteSpec());
        site.getSpec().setPage("<h1>shop</h1>");
        site.getSpec().setTls(new WebsiteTls());
        site.getSpec().getTls().setSecretName("shop-tls");

        Website served = kit.awaitReconciled(client.resource(site).create());

        assertThat(kit.metrics("website").informers()).extracting(InformerStatus::resource)
                .as("no informer lists Secrets").doesNotContain("secrets");
        assertThat(served.getStatus().getUrl()).startsWith("https://");
        Deployment deployment = kit.owned(served, Deployment.class).get(0);
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts())
                .extracting(ContainerPort::getName).containsExactly("http", "https");
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
                .anySatisfy(volume -> assertThat(volume.getSecret()).isNotNull()
                        .satisfies(secret -> assertThat(secret.getSecretName()).isEqualTo("shop-tls")));
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .doesNotContainKey(WebsiteResources.TLS_SECRET_VERSION);
        assertThat(served.getStatus().condition("Degraded")).hasValueSatisfying(degraded ->
                assertThat(degraded.getReason()).isNotEqualTo(WebsiteReconciler.TLS_SECRET_NOT_FOUND));
    }
}
