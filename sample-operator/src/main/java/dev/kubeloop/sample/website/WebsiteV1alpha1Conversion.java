package dev.kubeloop.sample.website;

import dev.kubeloop.api.webhook.SpokeConverter;
import org.springframework.stereotype.Component;

/**
 * v1alpha1 ⇄ v1, the hub (Kubeloop serves all of Website's versions at
 * {@code /convert-sample-kubeloop-dev-website}): v1alpha1's {@code spec.html} is v1's
 * {@code spec.page}; everything else, status included, is the same in both. Lossless both ways, so
 * a v1alpha1 client reading, changing and writing back a Website keeps everything. Metadata is the
 * source's (the API server allows no other change to it). Stateless.
 */
@Component
public class WebsiteV1alpha1Conversion
        implements SpokeConverter<Website, dev.kubeloop.sample.website.v1alpha1.Website> {

    @Override
    public Website toHub(dev.kubeloop.sample.website.v1alpha1.Website spoke) {
        Website hub = new Website();
        hub.setMetadata(spoke.getMetadata());
        WebsiteSpec spec = new WebsiteSpec();
        spec.setReplicas(spoke.getSpec().getReplicas());
        spec.setImage(spoke.getSpec().getImage());
        spec.setPage(spoke.getSpec().getHtml());
        spec.setTls(spoke.getSpec().getTls());
        hub.setSpec(spec);
        hub.setStatus(spoke.getStatus());
        return hub;
    }

    @Override
    public dev.kubeloop.sample.website.v1alpha1.Website fromHub(Website hub) {
        var spoke = new dev.kubeloop.sample.website.v1alpha1.Website();
        spoke.setMetadata(hub.getMetadata());
        var spec = new dev.kubeloop.sample.website.v1alpha1.WebsiteSpec();
        spec.setReplicas(hub.getSpec().getReplicas());
        spec.setImage(hub.getSpec().getImage());
        spec.setHtml(hub.getSpec().getPage());
        spec.setTls(hub.getSpec().getTls());
        spoke.setSpec(spec);
        spoke.setStatus(hub.getStatus());
        return spoke;
    }
}
