package dev.kubeloop.sample.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects {@code helm template} renders for the chart with some values set, parsed with
 * fabric8 (kinds fabric8 does not know, such as ServiceMonitor, come back as
 * GenericKubernetesResource). Public for the end-to-end tests, which apply the rendered RBAC to a
 * real API server.
 */
public final class RenderedChart {

    static final Path CHART = Path.of("..", "helm", "sample-operator");
    static final String RELEASE = "kl";
    static final String NAMESPACE = "operators";
    static final String KUBE_VERSION = "1.31.0";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final List<HasMetadata> objects;
    private final String manifest;

    private RenderedChart(List<HasMetadata> objects, String manifest) {
        this.objects = objects;
        this.manifest = manifest;
    }

    /** Rendered for a current Kubernetes ({@value #KUBE_VERSION}), as {@code helm install} would render it there. */
    static RenderedChart render(Map<String, Object> values) {
        return render(RELEASE, NAMESPACE, KUBE_VERSION, values);
    }

    /** {@code helm template <release> helm/sample-operator --namespace <namespace> --set ...}. */
    public static RenderedChart render(String release, String namespace, Map<String, Object> values) {
        return render(release, namespace, null, values);
    }

    /**
     * The same for a cluster of {@code kubeVersion} ({@code 1.20.0}; null: Helm's default), as
     * {@code .Capabilities.KubeVersion} tells the templates. helm-java's template, unlike
     * {@code helm template}, makes Helm's {@code lookup} call a cluster: the chart's certificate
     * reuse (a lookup of the existing Secret) is switched off, so a fresh certificate is rendered.
     */
    public static RenderedChart render(String release, String namespace, String kubeVersion,
            Map<String, Object> values) {
        TemplateCommand template = new Helm(CHART).template().withName(release).withNamespace(namespace);
        if (kubeVersion != null) {
            template.withKubeVersion(kubeVersion);
        }
        template.set("webhooks.certificate.keepAcrossUpgrades", "false");
        values.forEach(template::set);
        String manifest = template.call();
        return new RenderedChart(parse(manifest), manifest);
    }

    static List<HasMetadata> parse(String manifests) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : manifests.split("(?m)^---\\s*$")) {
            if (document.lines().anyMatch(line -> line.startsWith("kind:"))) {
                objects.add(SERIALIZATION.unmarshal(document, HasMetadata.class));
            }
        }
        return objects;
    }

    /** The rendered manifest as Helm printed it: what {@code kubectl apply -f} takes. */
    public String manifest() {
        return manifest;
    }

    public List<HasMetadata> all() {
        return objects;
    }

    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public <T extends HasMetadata> T one(Class<T> type) {
        List<T> found = all(type);
        assertThat(found).as("rendered objects of type " + type.getSimpleName()).hasSize(1);
        return found.get(0);
    }

    Optional<HasMetadata> kind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.getKind())).findFirst();
    }

    List<String> kinds() {
        return objects.stream().map(HasMetadata::getKind).toList();
    }
}
