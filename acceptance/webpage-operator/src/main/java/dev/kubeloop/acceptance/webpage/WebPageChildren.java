package dev.kubeloop.acceptance.webpage;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The objects a WebPage is served by, as the original's deployment.yaml, service.yaml and
 * ingress.yaml templates and Utils make them (built in code here, not loaded from YAML and patched).
 * No owner references: {@code context.apply} adds them.
 */
final class WebPageChildren {

    static final String INDEX_HTML = "index.html";
    /** The label the original puts on every child (its informers select on it). */
    static final Map<String, String> MANAGED = Map.of("managed", "true");
    /**
     * On the Pod template: a digest of the html, so that new html is a new template and the
     * Deployment controller replaces the Pods (what {@code kubectl rollout restart} does with an
     * annotation too). The original deletes the Pods by label instead, which the RBAC generated
     * from the code does not allow (no rule on Pods; a label-selected delete is {@code deletecollection}).
     */
    static final String HTML_DIGEST = "sample.javaoperatorsdk/html-sha256";

    private WebPageChildren() {
    }

    static String configMapName(WebPage webPage) {
        return webPage.getMetadata().getName() + "-html";
    }

    static String deploymentName(WebPage webPage) {
        return webPage.getMetadata().getName();
    }

    static String serviceName(WebPage webPage) {
        return webPage.getMetadata().getName();
    }

    static ConfigMap configMap(WebPage webPage) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                    .withName(configMapName(webPage))
                    .withNamespace(webPage.getMetadata().getNamespace())
                    .withLabels(MANAGED)
                .endMetadata()
                .addToData(INDEX_HTML, webPage.getSpec().getHtml())
                .build();
    }

    static Deployment deployment(WebPage webPage) {
        String name = deploymentName(webPage);
        return new DeploymentBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withNamespace(webPage.getMetadata().getNamespace())
                    .withLabels(MANAGED)
                .endMetadata()
                .withNewSpec()
                    .withReplicas(1)
                    .withNewSelector().addToMatchLabels("app", name).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().addToLabels("app", name)
                            .addToAnnotations(HTML_DIGEST, digest(webPage.getSpec().getHtml())).endMetadata()
                        .withNewSpec()
                            .addNewContainer()
                                .withName("nginx")
                                .withImage("nginx:1.17.0")
                                .addNewPort().withContainerPort(80).endPort()
                                .addNewVolumeMount().withName("html-volume").withMountPath("/usr/share/nginx/html")
                                .endVolumeMount()
                            .endContainer()
                            .addNewVolume()
                                .withName("html-volume")
                                .withNewConfigMap().withName(configMapName(webPage)).endConfigMap()
                            .endVolume()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    static Service service(WebPage webPage) {
        return new ServiceBuilder()
                .withNewMetadata()
                    .withName(serviceName(webPage))
                    .withNamespace(webPage.getMetadata().getNamespace())
                    .withLabels(MANAGED)
                .endMetadata()
                .withNewSpec()
                    .addToSelector("app", deploymentName(webPage))
                    .addNewPort().withProtocol("TCP").withPort(80).withNewTargetPort(80).endPort()
                    .withType("NodePort")
                .endSpec()
                .build();
    }

    static Ingress ingress(WebPage webPage) {
        return new IngressBuilder()
                .withNewMetadata()
                    .withName(webPage.getMetadata().getName())
                    .withNamespace(webPage.getMetadata().getNamespace())
                    .withLabels(MANAGED)
                    .addToAnnotations("nginx.ingress.kubernetes.io/rewrite-target", "/$1")
                .endMetadata()
                .withNewSpec()
                    .addNewRule()
                        .withNewHttp()
                            .addNewPath()
                                .withPath("/")
                                .withPathType("Prefix")
                                .withNewBackend()
                                    .withNewService()
                                        .withName(serviceName(webPage))
                                        .withNewPort().withNumber(80).endPort()
                                    .endService()
                                .endBackend()
                            .endPath()
                        .endHttp()
                    .endRule()
                .endSpec()
                .build();
    }

    private static String digest(String html) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(html.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
