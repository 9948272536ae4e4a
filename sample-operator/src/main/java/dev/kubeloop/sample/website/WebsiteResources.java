package dev.kubeloop.sample.website;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The objects a Website wants, and whether an existing object still matches them. Only the fields
 * the operator sets are compared, so what the API server defaults (a Deployment's strategy, a
 * container's terminationMessagePath, a Service's clusterIP) never counts as drift. Stateless.
 */
final class WebsiteResources {

    static final String CONTENT_HASH = "sample.kubeloop.dev/content-hash";
    /** The TLS Secret's resourceVersion on the pod template: a rotated certificate rolls the pods. */
    static final String TLS_SECRET_VERSION = "sample.kubeloop.dev/tls-secret-version";
    static final String PAGE_KEY = "index.html";
    static final String TLS_CONF_KEY = "tls.conf";
    static final int HTTP_PORT = 80;
    static final int HTTPS_PORT = 443;
    /** nginx serves the page over HTTPS with the Secret's certificate, next to the image's HTTP server. */
    static final String TLS_CONF = """
            server {
                listen 443 ssl;
                ssl_certificate /etc/nginx/tls/tls.crt;
                ssl_certificate_key /etc/nginx/tls/tls.key;
                root /usr/share/nginx/html;
            }
            """;

    private WebsiteResources() {
    }

    static String contentName(Website site) {
        return site.getMetadata().getName() + "-content";
    }

    static Map<String, String> selector(Website site) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "website");
        labels.put("app.kubernetes.io/instance", site.getMetadata().getName());
        return labels;
    }

    static Map<String, String> labels(Website site) {
        Map<String, String> labels = selector(site);
        labels.put("app.kubernetes.io/managed-by", "kubeloop-sample-operator");
        return labels;
    }

    static String url(Website site, boolean tls) {
        return (tls ? "https://" : "http://") + site.getMetadata().getName() + "." + site.getMetadata().getNamespace()
                + ".svc";
    }

    /** The Secret the spec names for TLS, or null. */
    static String tlsSecretName(Website site) {
        WebsiteTls tls = site.getSpec().getTls();
        return tls == null || tls.getSecretName() == null || tls.getSecretName().isBlank() ? null
                : tls.getSecretName();
    }

    static ConfigMap content(Website site, boolean tls) {
        ConfigMapBuilder content = new ConfigMapBuilder().withMetadata(metadata(site, contentName(site)))
                .addToData(PAGE_KEY, html(site));
        if (tls) {
            content.addToData(TLS_CONF_KEY, TLS_CONF);
        }
        return content.build();
    }

    /** 0644, what the API server sets on a ConfigMap volume that names no mode. */
    static final int DEFAULT_FILE_MODE = 0644;

    /**
     * The Deployment; with {@code tlsSecret} (the Secret as cached: metadata only), nginx also serves
     * HTTPS with its certificate, and the Secret's resourceVersion on the pod template rolls the pods
     * when the certificate is rotated.
     */
    static Deployment deployment(Website site, HasMetadata tlsSecret) {
        PodSpecBuilder pod = new PodSpecBuilder()
                .addNewContainer().withName("nginx").withImage(site.getSpec().getImage())
                .addNewPort().withName("http").withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
                .addNewVolumeMount().withName("content").withMountPath("/usr/share/nginx/html").withReadOnly(true)
                .endVolumeMount()
                .endContainer()
                // defaultMode: the API server's default, spelled out so that the stored object compares equal
                // (without it, every reconcile on a real cluster saw drift and "repaired" the Deployment)
                .addNewVolume().withName("content").withNewConfigMap().withName(contentName(site))
                .withDefaultMode(DEFAULT_FILE_MODE).endConfigMap()
                .endVolume();
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(CONTENT_HASH, hash(html(site)));
        if (tlsSecret != null) {
            annotations.put(TLS_SECRET_VERSION, tlsSecret.getMetadata().getResourceVersion());
            pod.editFirstContainer()
                    .addNewPort().withName("https").withContainerPort(HTTPS_PORT).withProtocol("TCP").endPort()
                    .addNewVolumeMount().withName("tls").withMountPath("/etc/nginx/tls").withReadOnly(true)
                    .endVolumeMount()
                    .addNewVolumeMount().withName("content").withMountPath("/etc/nginx/conf.d/" + TLS_CONF_KEY)
                    .withSubPath(TLS_CONF_KEY).withReadOnly(true).endVolumeMount()
                    .endContainer()
                    .addNewVolume().withName("tls").withNewSecret().withSecretName(tlsSecret.getMetadata().getName())
                    .withDefaultMode(DEFAULT_FILE_MODE).endSecret().endVolume();
        }
        return new DeploymentBuilder().withMetadata(metadata(site, site.getMetadata().getName()))
                .withNewSpec()
                .withReplicas(site.getSpec().getReplicas())
                .withNewSelector().withMatchLabels(selector(site)).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(labels(site)).withAnnotations(annotations).endMetadata()
                .withSpec(pod.build())
                .endTemplate()
                .endSpec().build();
    }

    static Service service(Website site, boolean tls) {
        ServiceBuilder service = new ServiceBuilder().withMetadata(metadata(site, site.getMetadata().getName()))
                .withNewSpec().withSelector(selector(site))
                .addNewPort().withName("http").withPort(HTTP_PORT).withTargetPort(new IntOrString("http"))
                .withProtocol("TCP").endPort()
                .endSpec();
        if (tls) {
            service.editSpec().addNewPort().withName("https").withPort(HTTPS_PORT)
                    .withTargetPort(new IntOrString("https")).withProtocol("TCP").endPort().endSpec();
        }
        return service.build();
    }

    static boolean matches(ConfigMap existing, ConfigMap desired) {
        return Objects.equals(existing.getData(), desired.getData()) && labelsCover(existing, desired);
    }

    static boolean matches(Deployment existing, Deployment desired) {
        if (existing.getSpec() == null || existing.getSpec().getTemplate() == null
                || existing.getSpec().getTemplate().getSpec() == null || !labelsCover(existing, desired)) {
            return false;
        }
        var have = existing.getSpec();
        var want = desired.getSpec();
        ObjectMeta haveTemplate = have.getTemplate().getMetadata();
        ObjectMeta wantTemplate = want.getTemplate().getMetadata();
        return Objects.equals(have.getReplicas(), want.getReplicas())
                && Objects.equals(have.getSelector(), want.getSelector())
                && haveTemplate != null && covers(haveTemplate.getLabels(), wantTemplate.getLabels())
                && covers(haveTemplate.getAnnotations(), wantTemplate.getAnnotations())
                && containersMatch(have.getTemplate().getSpec().getContainers(),
                        want.getTemplate().getSpec().getContainers())
                && Objects.equals(have.getTemplate().getSpec().getVolumes(), want.getTemplate().getSpec().getVolumes());
    }

    static boolean matches(Service existing, Service desired) {
        if (existing.getSpec() == null || !labelsCover(existing, desired)) {
            return false;
        }
        List<ServicePort> have = existing.getSpec().getPorts();
        List<ServicePort> want = desired.getSpec().getPorts();
        if (have == null || have.size() != want.size()) {
            return false;
        }
        for (int i = 0; i < want.size(); i++) {
            ServicePort h = have.get(i);
            ServicePort w = want.get(i);
            if (!Objects.equals(h.getName(), w.getName()) || !Objects.equals(h.getPort(), w.getPort())
                    || !Objects.equals(h.getTargetPort(), w.getTargetPort())
                    || !Objects.equals(h.getProtocol(), w.getProtocol())) {
                return false;
            }
        }
        return Objects.equals(existing.getSpec().getSelector(), desired.getSpec().getSelector());
    }

    private static boolean containersMatch(List<Container> have, List<Container> want) {
        if (have == null || have.size() != want.size()) {
            return false;
        }
        for (int i = 0; i < want.size(); i++) {
            Container h = have.get(i);
            Container w = want.get(i);
            if (!Objects.equals(h.getName(), w.getName()) || !Objects.equals(h.getImage(), w.getImage())
                    || !Objects.equals(h.getPorts(), w.getPorts())
                    || !Objects.equals(h.getVolumeMounts(), w.getVolumeMounts())) {
                return false;
            }
        }
        return true;
    }

    private static boolean labelsCover(HasMetadata existing, HasMetadata desired) {
        return covers(existing.getMetadata().getLabels(), desired.getMetadata().getLabels());
    }

    private static boolean covers(Map<String, String> have, Map<String, String> want) {
        if (want == null || want.isEmpty()) {
            return true;
        }
        return have != null && have.entrySet().containsAll(want.entrySet());
    }

    private static ObjectMeta metadata(Website site, String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace(site.getMetadata().getNamespace())
                .withLabels(labels(site)).build();
    }

    private static String html(Website site) {
        return site.getSpec().getHtml() == null ? "" : site.getSpec().getHtml();
    }

    static String hash(String content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
