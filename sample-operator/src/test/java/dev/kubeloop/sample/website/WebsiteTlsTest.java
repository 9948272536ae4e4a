package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A Website's TLS Secret, which it names but does not own: with {@code sample.tls-secrets.watch=true}
 * the reconciler follows it through a metadata-only watch and an index. Runs on the kit's embedded API server and, in the e2e suite,
 * on a real kube-apiserver (where the watch asks for PartialObjectMetadata).
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", WebsiteReconciler.WATCH_TLS_SECRETS + "=true"})
class WebsiteTlsTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aMissingSecretIsReportedAndItsCreationThroughTheWatchTurnsHttpsOn() {
        Website site = kit.awaitReconciled(client.resource(website("shop", "shop-tls")).create());

        Condition degraded = condition(site, "Degraded");
        assertThat(degraded.getStatus()).isEqualTo("True");
        assertThat(degraded.getReason()).isEqualTo(WebsiteReconciler.TLS_SECRET_NOT_FOUND);
        assertThat(degraded.getMessage()).contains("Secret shop-tls", "serving HTTP only");
        assertThat(condition(site, "Ready").getReason()).isEqualTo(WebsiteReconciler.TLS_SECRET_NOT_FOUND);
        assertThat(site.getStatus().getUrl()).startsWith("http://");
        kit.awaitEvent(site, WebsiteReconciler.TLS_SECRET_NOT_FOUND);
        assertThat(ports(single(kit.owned(site, Deployment.class)))).containsExactly("http");

        Secret secret = client.resource(tlsSecret("shop-tls", "first")).create();

        // nothing about the Website changed: only the Secret watch can have reconciled it
        kit.await("the Website serves HTTPS", () -> client.resource(site).get().getStatus().getUrl()
                .startsWith("https://"));
        Website served = kit.awaitReconciled(site);
        assertThat(condition(served, "Degraded").getStatus()).isEqualTo("False");
        Deployment deployment = single(kit.owned(served, Deployment.class));
        assertThat(ports(deployment)).containsExactly("http", "https");
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
                .extracting(volume -> volume.getSecret() == null ? null : volume.getSecret().getSecretName())
                .contains("shop-tls");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry(WebsiteResources.TLS_SECRET_VERSION, secret.getMetadata().getResourceVersion());
        assertThat(single(kit.owned(served, Service.class)).getSpec().getPorts()).extracting(ServicePort::getName)
                .containsExactly("http", "https");
    }

    @Test
    void aRotatedCertificateRollsThePodsOfTheWebsitesThatUseIt() {
        client.resource(tlsSecret("rotating-tls", "first")).create();
        Website site = kit.awaitReconciled(client.resource(website("blog", "rotating-tls")).create());
        String before = single(kit.owned(site, Deployment.class)).getSpec().getTemplate().getMetadata()
                .getAnnotations().get(WebsiteResources.TLS_SECRET_VERSION);

        Secret rotated = client.resource(tlsSecret("rotating-tls", "second")).update();

        kit.await("the pod template carries the rotated Secret's version", () -> rotated.getMetadata()
                .getResourceVersion().equals(single(kit.owned(site, Deployment.class)).getSpec().getTemplate()
                        .getMetadata().getAnnotations().get(WebsiteResources.TLS_SECRET_VERSION)));
        assertThat(rotated.getMetadata().getResourceVersion()).isNotEqualTo(before);
    }

    @Test
    void aDeletedSecretTurnsHttpsOffAgainAndSaysWhy() {
        client.resource(tlsSecret("gone-tls", "first")).create();
        Website site = kit.awaitReconciled(client.resource(website("wiki", "gone-tls")).create());
        assertThat(site.getStatus().getUrl()).startsWith("https://");

        assertThat(kit.owned(site, ConfigMap.class)).extracting(configMap -> configMap.getMetadata().getName())
                .containsExactlyInAnyOrder(WebsiteResources.contentName(site), "wiki-tls");

        client.secrets().withName("gone-tls").delete();

        kit.await("the Website reports its Secret missing", () -> WebsiteReconciler.TLS_SECRET_NOT_FOUND.equals(
                condition(client.resource(site).get(), "Degraded").getReason()));
        assertThat(ports(single(kit.owned(site, Deployment.class)))).containsExactly("http");
        // the HTTPS server block is no longer applied: pruned
        kit.await("the TLS ConfigMap is pruned", () -> kit.owned(site, ConfigMap.class).size() == 1);
        assertThat(kit.awaitEvent(site, "Pruned").getMessage())
                .isEqualTo("ConfigMap wiki-tls is no longer wanted and was deleted");
    }

    private Website website(String name, String tlsSecret) {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName(name).build());
        WebsiteSpec spec = new WebsiteSpec();
        spec.setPage("<h1>" + name + "</h1>");
        WebsiteTls tls = new WebsiteTls();
        tls.setSecretName(tlsSecret);
        spec.setTls(tls);
        site.setSpec(spec);
        return site;
    }

    private Secret tlsSecret(String name, String certificate) {
        Base64.Encoder base64 = Base64.getEncoder();
        return new SecretBuilder().withNewMetadata().withNamespace(kit.namespace()).withName(name).endMetadata()
                .withType("kubernetes.io/tls")
                .withData(Map.of("tls.crt", base64.encodeToString(certificate.getBytes()),
                        "tls.key", base64.encodeToString(("key of " + certificate).getBytes())))
                .build();
    }

    private static List<String> ports(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().stream()
                .map(ContainerPort::getName).toList();
    }

    private static Condition condition(Website site, String type) {
        return site.getStatus().condition(type).orElseThrow();
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
