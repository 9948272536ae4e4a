package dev.kubeloop.sample.website;

import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Defaulter;
import org.springframework.stereotype.Component;

/**
 * Fills in what the schema's constant defaults cannot (Kubeloop serves it at
 * {@code /mutate-sample-kubeloop-dev-v1-website} and answers with the JSONPatch of its changes): an
 * empty {@code spec.page} becomes a page naming the site, so that a Website created with nothing but
 * a name serves something that says what it is. Idempotent: a page is never replaced. Stateless.
 */
@Component
public class WebsiteDefaulter implements Defaulter<Website> {

    @Override
    public void applyDefaults(Website site, AdmissionContext context) {
        if (site.getSpec() == null) {
            site.setSpec(new WebsiteSpec());
        }
        String page = site.getSpec().getPage();
        if (page == null || page.isBlank()) {
            site.getSpec().setPage(placeholder(site));
        }
    }

    /** The page of a site that has none; {@code generateName} sites are named in it by their prefix. */
    static String placeholder(Website site) {
        String name = site.getMetadata().getName();
        if (name == null || name.isEmpty()) {
            name = site.getMetadata().getGenerateName();
        }
        return "<h1>" + escape(name) + "</h1><p>This site has no page yet: set spec.page.</p>";
    }

    private static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
