package dev.kubeloop.sample.website;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A static website: {@code sample.kubeloop.dev/v1alpha1 Website}. The operator serves its
 * {@code spec.html} with nginx: a ConfigMap with the page, a Deployment and a Service, all owned by
 * the Website. The CRD (schema, status subresource, printer columns) is generated from this class
 * at build time into {@code META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml}.
 */
@Group(Website.GROUP)
@Version(Website.VERSION)
@ShortNames("site")
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Available", jsonPath = ".status.readyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "URL", jsonPath = ".status.url", type = AdditionalPrinterColumn.Type.STRING,
        priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class Website extends CustomResource<WebsiteSpec, WebsiteStatus> implements Namespaced {

    public static final String GROUP = "sample.kubeloop.dev";
    public static final String VERSION = "v1alpha1";
    private static final long serialVersionUID = 1L;

    @Override
    protected WebsiteSpec initSpec() {
        return new WebsiteSpec();
    }
}
