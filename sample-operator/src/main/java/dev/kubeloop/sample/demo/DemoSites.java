package dev.kubeloop.sample.demo;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Once the operator is up, creates the demo's two Websites and tells the user where to look.
 */
final class DemoSites implements ApplicationListener<ApplicationReadyEvent> {

    static final String NAMESPACE = "demo";
    static final List<String> SITES = List.of("hello", "docs");

    private static final Logger log = LoggerFactory.getLogger(DemoSites.class);

    private final DemoApiServer server;

    DemoSites(DemoApiServer server) {
        this.server = server;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        for (String name : SITES) {
            Website site = new Website();
            site.setMetadata(new ObjectMetaBuilder().withNamespace(NAMESPACE).withName(name).build());
            WebsiteSpec spec = new WebsiteSpec();
            spec.setReplicas(name.equals("hello") ? 1 : 2);
            spec.setPage("<h1>" + name + "</h1><p>Served by the Kubeloop sample operator.</p>");
            site.setSpec(spec);
            server.client().resource(site).create();
        }
        Environment environment = event.getApplicationContext().getEnvironment();
        String port = environment.getProperty("local.management.port", environment.getProperty("local.server.port", "8080"));
        String base = "http://localhost:" + port + "/actuator";
        log.info("Demo mode (no cluster configured): embedded API server at {} with the Website CRD", server.url());
        log.info("Created Websites {} in namespace '{}'; the operator gives each a ConfigMap, a Deployment and a Service",
                SITES, NAMESPACE);
        log.info("Look at {}/kubeloop (controllers, queues, errors), {}/health and {}/prometheus", base, base, base);
        log.info("To run against a cluster, set KUBECONFIG (or sample.demo=off); stop with Ctrl+C");
    }
}
