package dev.kubeloop.sample.demo;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.Environment;

/**
 * Once the operator is up, creates the demo's two Websites and tells the user where to look.
 *
 * <p>A stop can overtake it: the ready event comes after "Started ... in ... seconds", so a SIGTERM
 * on that line (a script that waits for it, a quick Ctrl+C) closes the context, and the embedded
 * server's client with it, while the Websites are being created. That is a stop, not a failed start:
 * once the context is closing, a creation that fails is logged and the rest skipped. Called on the
 * main thread (ready) and the shutdown hook's (closed): the flag is volatile.
 */
final class DemoSites implements ApplicationListener<ApplicationEvent> {

    static final String NAMESPACE = "demo";
    static final List<String> SITES = List.of("hello", "docs");

    private static final Logger log = LoggerFactory.getLogger(DemoSites.class);

    private final DemoApiServer server;
    private volatile boolean closing;

    DemoSites(DemoApiServer server) {
        this.server = server;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ContextClosedEvent) {
            closing = true; // published before any bean is destroyed: before the client closes
        } else if (event instanceof ApplicationReadyEvent ready) {
            try {
                createSites();
            } catch (RuntimeException e) {
                if (!closing) {
                    throw e;
                }
                log.info("Stopping before the demo's Websites were created: {}", e.toString());
                return;
            }
            tellTheUser(ready);
        }
    }

    private void createSites() {
        for (String name : SITES) {
            Website site = new Website();
            site.setMetadata(new ObjectMetaBuilder().withNamespace(NAMESPACE).withName(name).build());
            WebsiteSpec spec = new WebsiteSpec();
            spec.setReplicas(name.equals("hello") ? 1 : 2);
            spec.setPage("<h1>" + name + "</h1><p>Served by the Kubeloop sample operator.</p>");
            site.setSpec(spec);
            server.client().resource(site).create();
        }
    }

    private void tellTheUser(ApplicationReadyEvent event) {
        Environment environment = event.getApplicationContext().getEnvironment();
        String port = environment.getProperty("local.management.port", environment.getProperty("local.server.port", "8080"));
        String base = "http://localhost:" + port + "/actuator";
        log.info("Demo mode (no cluster configured): embedded API server at {} with the Website CRD", server.url());
        log.info("Created Websites {} in namespace '{}'; the operator gives each a ConfigMap, a Deployment and a Service",
                SITES, NAMESPACE);
        log.info("kubectl works against it: kubectl --server {} get websites,configmaps -n {}", server.url(),
                NAMESPACE);
        log.info("Look at {}/kubeloop (controllers, queues, errors), {}/health and {}/prometheus", base, base, base);
        log.info("To run against a cluster, set KUBECONFIG (or sample.demo=off); stop with Ctrl+C");
    }
}
