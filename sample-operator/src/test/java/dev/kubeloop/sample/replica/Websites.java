package dev.kubeloop.sample.replica;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.sample.website.WebsiteSpec;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Many Websites at once for the replica tests: create them, change their spec, and tell whether
 * the operator has caught up with all of them.
 */
public final class Websites {

    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final String namespace;

    public Websites(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Creates {@code site-0} … {@code site-<count-1>} serving {@code html}; returns their names. */
    public List<String> create(int count, String html) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Website site = new Website();
            site.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName("site-" + i).build());
            WebsiteSpec spec = new WebsiteSpec();
            spec.setPage(html);
            site.setSpec(spec);
            names.add(client.resource(site).create().getMetadata().getName());
        }
        return names;
    }

    /**
     * Changes a Website's page (a new generation) with a JSON merge patch: no resourceVersion, so
     * it never conflicts with the operator's writes, as a user's {@code kubectl apply} would not.
     */
    public void setHtml(String name, String html) {
        client.resources(Website.class).inNamespace(namespace).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"page\":\"" + html + "\"}}");
    }

    /**
     * How many of the namespace's Websites the operator has caught up with: status.observedGeneration
     * equals metadata.generation, and the content ConfigMap serves the spec's page.
     */
    public Convergence convergence() {
        Map<String, ConfigMap> configMaps = client.configMaps().inNamespace(namespace).list().getItems().stream()
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
        List<Website> sites = client.resources(Website.class).inNamespace(namespace).list().getItems();
        int converged = 0;
        String lagging = null;
        for (Website site : sites) {
            String problem = lag(site, configMaps.get(WebsiteResources.contentName(site))); // named by the spec's page
            if (problem == null) {
                converged++;
            } else if (lagging == null) {
                lagging = site.getMetadata().getName() + ": " + problem;
            }
        }
        return new Convergence(sites.size(), converged, lagging);
    }

    /**
     * Waits until all {@code expected} Websites have converged; on timeout the failure says how
     * many had and why the first had not. Asks the API server once a second, not at every one of
     * the kit's rechecks: listing hundreds of objects ten times a second would load the two cores
     * the replicas need.
     */
    public void awaitConverged(KubeloopTestKit kit, String description, int expected, Duration timeout) {
        BooleanSupplier allConverged = new BooleanSupplier() {
            private Instant nextCheck = Instant.MIN;

            @Override
            public boolean getAsBoolean() {
                if (Instant.now().isBefore(nextCheck)) {
                    return false;
                }
                nextCheck = Instant.now().plus(POLL_INTERVAL);
                Convergence now = convergence();
                return now.total() == expected && now.converged() == expected;
            }
        };
        try {
            kit.await(description, timeout, allConverged);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nconverged now: " + convergence(), e);
        }
    }

    /** Why {@code site} has not converged, or null if it has. */
    private static String lag(Website site, ConfigMap content) {
        Long generation = site.getMetadata().getGeneration();
        if (site.getStatus() == null || !Objects.equals(site.getStatus().getObservedGeneration(), generation)) {
            return "observedGeneration " + (site.getStatus() == null ? null : site.getStatus().getObservedGeneration())
                    + ", generation " + generation;
        }
        String served = content == null || content.getData() == null ? null : content.getData().get("index.html");
        if (!Objects.equals(served, site.getSpec().getPage())) {
            return "its ConfigMap serves " + served + ", its spec says " + site.getSpec().getPage();
        }
        return null;
    }

    /** How many Websites there are, how many have converged, and why the first that has not. */
    public record Convergence(int total, int converged, String firstLagging) {
        @Override
        public String toString() {
            return converged + "/" + total + (firstLagging == null ? "" : " (" + firstLagging + ")");
        }
    }
}
