package dev.kubeloop.sample.website;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A static website: {@code sample.kubeloop.dev/v1 Website}, the hub and storage version. The
 * operator serves its {@code spec.page} with nginx: a ConfigMap with the page, a Deployment and a
 * Service, all owned by the Website. The older {@code v1alpha1} (where the page was
 * {@code spec.html}) is still served and converted by the operator's conversion webhook
 * ({@code webhook.WebsiteV1alpha1Conversion}). The CRD (both versions, schema, status subresource,
 * printer columns) is generated from this class and {@code v1alpha1.Website} at build time into
 * {@code META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml}.
 */
@Group(Website.GROUP)
@Version(value = Website.VERSION, storage = true, served = true)
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
    public static final String VERSION = "v1";
    private static final long serialVersionUID = 1L;

    @Override
    protected WebsiteSpec initSpec() {
        return new WebsiteSpec();
    }
}
