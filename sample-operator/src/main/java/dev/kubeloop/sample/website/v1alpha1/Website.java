package dev.kubeloop.sample.website.v1alpha1;

import dev.kubeloop.sample.website.WebsiteStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code sample.kubeloop.dev/v1alpha1 Website}: served for clients that still write it, deprecated
 * (the API server warns them), stored as v1. Its page is {@code spec.html}.
 */
@Group(Website.GROUP)
@Version(value = Website.VERSION, storage = false, served = true, deprecated = true,
        deprecationWarning = "sample.kubeloop.dev/v1alpha1 Website is deprecated; use sample.kubeloop.dev/v1 "
                + "(spec.html is spec.page there)")
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

    public static final String GROUP = dev.kubeloop.sample.website.Website.GROUP;
    public static final String VERSION = "v1alpha1";
    private static final long serialVersionUID = 1L;

    @Override
    protected WebsiteSpec initSpec() {
        return new WebsiteSpec();
    }
}
