package dev.kubeloop.sample.website;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The objects a Website wants, as apply bodies: only the fields the operator has an opinion on.
 * What the API server defaults (a Deployment's strategy, a container's terminationMessagePath, a
 * Service's clusterIP, a volume's defaultMode) is left to it. Stateless.
 *
 * <p>The page's ConfigMap is named by its content ({@link #contentName}), so a pod names the page
 * it serves: a new page is a new ConfigMap and a new pod template (the pods roll), and the previous
 * ConfigMap is pruned once the rollout replaced every pod that mounts it ({@link #earlierPage},
 * {@link #rolledOut}): pruned at once, the old pods' volume fails to mount again when the kubelet
 * syncs them (a FailedMount Warning on each; seen on the CI's real cluster). A pod that mounted a
 * ConfigMap changed in place would depend on the kubelet's cache of it: a pod started a moment
 * after a change can mount the previous page, and the kubelet refreshes it when it syncs the pod, a
 * minute or more later (seen on the CI's real cluster: more than three minutes).
 */
public final class WebsiteResources {

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

    /**
     * The name of the ConfigMap with the site's page: {@code <site>-content-<16 hex digits of the
     * page's SHA-256>} (at most 88 characters: a site's name is a DNS label, at most 63).
     */
    public static String contentName(Website site) {
        return site.getMetadata().getName() + "-content-" + hash(html(site));
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

    static String tlsConfigName(Website site) {
        return site.getMetadata().getName() + "-tls";
    }

    static ConfigMap content(Website site) {
        return new ConfigMapBuilder().withMetadata(metadata(site, contentName(site))).addToData(PAGE_KEY, html(site))
                .build();
    }

    /**
     * An earlier page's ConfigMap ({@code page}, as cached), applied as it is so that pruning keeps it
     * while pods of an earlier template may still mount it; nothing is sent (the same body as before).
     */
    static ConfigMap earlierPage(Website site, ConfigMap page) {
        return new ConfigMapBuilder().withMetadata(metadata(site, page.getMetadata().getName()))
                .withData(page.getData()).build();
    }

    /** Whether {@code name} is one of the site's page ConfigMaps, the current one or an earlier one. */
    static boolean isPage(Website site, String name) {
        return name.startsWith(site.getMetadata().getName() + "-content-");
    }

    /**
     * Whether no pod of an earlier template is left ({@code kubectl rollout status}'s test, but
     * availability): the Deployment controller has seen the latest template and every pod it counts
     * runs it. A Deployment the controller has not seen yet (no observedGeneration: just created, or
     * on a test server without a controller) has no pods, of any template.
     */
    static boolean rolledOut(Deployment deployment) {
        DeploymentStatus status = deployment.getStatus();
        if (status == null || status.getObservedGeneration() == null) {
            return true;
        }
        Long generation = deployment.getMetadata().getGeneration();
        boolean seen = generation == null || status.getObservedGeneration() >= generation;
        return seen && count(status.getReplicas()) == count(status.getUpdatedReplicas());
    }

    private static int count(Integer replicas) {
        return replicas == null ? 0 : replicas;
    }

    /**
     * nginx's HTTPS server block, applied only while the site serves HTTPS: when its Secret goes,
     * the reconcile stops applying it and Kubeloop prunes it.
     */
    static ConfigMap tlsConfig(Website site) {
        return new ConfigMapBuilder().withMetadata(metadata(site, tlsConfigName(site))).addToData(TLS_CONF_KEY, TLS_CONF)
                .build();
    }

    /**
     * The Deployment; with {@code tlsSecret} (the Secret as cached: metadata only; or its name alone
     * when Secrets are not watched), nginx also serves HTTPS with its certificate, and the Secret's
     * resourceVersion, when known, on the pod template rolls the pods when the certificate is rotated.
     */
    static Deployment deployment(Website site, HasMetadata tlsSecret) {
        PodSpecBuilder pod = new PodSpecBuilder()
                .addNewContainer().withName("nginx").withImage(site.getSpec().getImage())
                .addNewPort().withName("http").withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
                .addNewVolumeMount().withName("content").withMountPath("/usr/share/nginx/html").withReadOnly(true)
                .endVolumeMount()
                .endContainer()
                .addNewVolume().withName("content").withNewConfigMap().withName(contentName(site)).endConfigMap()
                .endVolume();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (tlsSecret != null) {
            if (tlsSecret.getMetadata().getResourceVersion() != null) { // known only when Secrets are watched
                annotations.put(TLS_SECRET_VERSION, tlsSecret.getMetadata().getResourceVersion());
            }
            pod.editFirstContainer()
                    .addNewPort().withName("https").withContainerPort(HTTPS_PORT).withProtocol("TCP").endPort()
                    .addNewVolumeMount().withName("tls").withMountPath("/etc/nginx/tls").withReadOnly(true)
                    .endVolumeMount()
                    .addNewVolumeMount().withName("tls-conf").withMountPath("/etc/nginx/conf.d/" + TLS_CONF_KEY)
                    .withSubPath(TLS_CONF_KEY).withReadOnly(true).endVolumeMount()
                    .endContainer()
                    .addNewVolume().withName("tls").withNewSecret().withSecretName(tlsSecret.getMetadata().getName())
                    .endSecret().endVolume()
                    .addNewVolume().withName("tls-conf").withNewConfigMap().withName(tlsConfigName(site))
                    .endConfigMap().endVolume();
        }
        return new DeploymentBuilder().withMetadata(metadata(site, site.getMetadata().getName()))
                .withNewSpec()
                .withReplicas(site.getSpec().getReplicas())
                .withNewSelector().withMatchLabels(selector(site)).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(labels(site)).withAnnotations(annotations.isEmpty() ? null : annotations)
                .endMetadata()
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
