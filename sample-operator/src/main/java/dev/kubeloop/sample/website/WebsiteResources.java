package dev.kubeloop.sample.website;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
    static final String PAGE_KEY = "index.html";
    static final int HTTP_PORT = 80;

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

    static String url(Website site) {
        return "http://" + site.getMetadata().getName() + "." + site.getMetadata().getNamespace() + ".svc";
    }

    static ConfigMap content(Website site) {
        return new ConfigMapBuilder().withMetadata(metadata(site, contentName(site)))
                .addToData(PAGE_KEY, html(site)).build();
    }

    /** 0644, what the API server sets on a ConfigMap volume that names no mode. */
    static final int DEFAULT_FILE_MODE = 0644;

    static Deployment deployment(Website site) {
        return new DeploymentBuilder().withMetadata(metadata(site, site.getMetadata().getName()))
                .withNewSpec()
                .withReplicas(site.getSpec().getReplicas())
                .withNewSelector().withMatchLabels(selector(site)).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(labels(site)).addToAnnotations(CONTENT_HASH, hash(html(site)))
                .endMetadata()
                .withNewSpec()
                .addNewContainer().withName("nginx").withImage(site.getSpec().getImage())
                .addNewPort().withName("http").withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
                .addNewVolumeMount().withName("content").withMountPath("/usr/share/nginx/html").withReadOnly(true)
                .endVolumeMount()
                .endContainer()
                // defaultMode: the API server's default, spelled out so that the stored object compares equal
                // (without it, every reconcile on a real cluster saw drift and "repaired" the Deployment)
                .addNewVolume().withName("content").withNewConfigMap().withName(contentName(site))
                .withDefaultMode(DEFAULT_FILE_MODE).endConfigMap()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec().build();
    }

    static Service service(Website site) {
        return new ServiceBuilder().withMetadata(metadata(site, site.getMetadata().getName()))
                .withNewSpec().withSelector(selector(site))
                .addNewPort().withName("http").withPort(HTTP_PORT).withTargetPort(new IntOrString("http"))
                .withProtocol("TCP").endPort()
                .endSpec().build();
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

    private static boolean labelsCover(io.fabric8.kubernetes.api.model.HasMetadata existing,
            io.fabric8.kubernetes.api.model.HasMetadata desired) {
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
        return site.getSpec().getPage() == null ? "" : site.getSpec().getPage();
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
