package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * The operator keeps its promises when the API server goes away under it: kube-apiserver stops
 * while reconciles are in flight and comes back (same etcd, same port), and is restarted on an etcd
 * compacted past every resourceVersion the informers hold, so their watches come back with
 * 410 Gone and they must list again. Every object converges, and every informer's cache ends up
 * holding exactly what the API server has.
 *
 * <p>Needs the API server of {@code scripts/local-apiserver.sh} (skipped on other clusters).
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(ReconcileHook.Config.class)
class WatchResilienceE2ETest {

    /** Failed reconciles back off while the server is away (5 ms doubling), and watches reconnect with backoff too. */
    static final Duration AFTER_OUTAGE = Duration.ofSeconds(90);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconcileHook hook;

    @AfterEach
    void everyInformerStillFollowsTheServer() {
        hook.release();
        kit.metrics("website").informers().forEach(informer -> assertThat(informer.failed())
                .as(informer.describe() + " failed: " + informer.failure()).isFalse());
    }

    @Test
    void everyWebsiteConvergesWhenKubeApiserverGoesAwayInTheMiddleOfARun() {
        LocalApiServer apiServer = LocalApiServer.assumeUnderTest();
        long errorsBefore = kit.metrics("website").outcomes().get(ReconcileOutcome.ERROR);
        hook.hold(); // the workers wait at the start of their reconciles...
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            names.add(client.resource(Sites.website(kit.namespace(), "site-" + i, "v1")).create().getMetadata()
                    .getName());
        }
        kit.await("both workers are inside a reconcile", () -> kit.metrics("website").activeWorkers() == 2);

        apiServer.stopKubeApiserver();
        hook.release(); // ...and go on against a server that is gone
        kit.await("reconciles fail while kube-apiserver is down", AFTER_OUTAGE,
                () -> kit.metrics("website").outcomes().get(ReconcileOutcome.ERROR) >= errorsBefore + 2);
        apiServer.start();

        client.resources(Website.class).withName("site-0").edit(site -> {
            site.getSpec().setPage("v2");
            return site;
        });
        client.resources(Website.class).withName("site-1").delete();
        names.remove("site-1");

        for (String name : names) {
            kit.awaitReconciled(client.resources(Website.class).withName(name).get(), AFTER_OUTAGE);
        }
        kit.await("site-1 is cleaned up and gone", AFTER_OUTAGE,
                () -> client.resources(Website.class).withName("site-1").get() == null);
        Website edited = client.resources(Website.class).withName("site-0").get();
        assertThat(edited.getStatus().getObservedGeneration()).isEqualTo(2L);
        assertThat(kit.owned(edited, ConfigMap.class)).singleElement()
                .satisfies(page -> assertThat(page.getData()).containsEntry("index.html", "v2"));
        assertThat(Sites.index(client, kit.namespace())).containsKeys(names.toArray(String[]::new))
                .doesNotContainKey("site-1");
        awaitCachesMatchTheServer();
    }

    @Test
    void informersListAgainWhenTheirResourceVersionExpiredInACompactedEtcd() {
        LocalApiServer apiServer = LocalApiServer.assumeUnderTest();
        Website before = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "before", "v1")).create());
        Service service = kit.owned(before, Service.class).get(0);
        kit.awaitIdle();
        Map<String, Long> relistsBefore = watchRestarts();

        apiServer.restartWithCompactedEtcd();

        // changes around the informers' reconnect: whether they come before or after the re-list, none may be lost
        client.resources(Website.class).withName("before").edit(site -> {
            site.getSpec().setPage("v2");
            return site;
        });
        client.resource(service).delete();
        Website after = client.resource(Sites.website(kit.namespace(), "after", "new")).create();

        kit.await("every informer listed again after 410 Gone", AFTER_OUTAGE, () -> {
            Map<String, Long> relists = watchRestarts();
            return relistsBefore.keySet().stream().allMatch(resource -> relists.get(resource) > relistsBefore.get(resource));
        });
        Website edited = kit.awaitReconciled(client.resource(before).get(), AFTER_OUTAGE);
        kit.awaitReconciled(after, AFTER_OUTAGE);
        assertThat(kit.owned(edited, ConfigMap.class)).singleElement()
                .satisfies(page -> assertThat(page.getData()).containsEntry("index.html", "v2"));
        kit.await("the deleted Service is recreated", AFTER_OUTAGE, () -> kit.owned(edited, Service.class).stream()
                .anyMatch(s -> !s.getMetadata().getUid().equals(service.getMetadata().getUid())));
        assertThat(Sites.index(client, kit.namespace())).containsKeys("before", "after");
        awaitCachesMatchTheServer();
    }

    /** Re-lists per informer (resource name), e.g. {@code websites.sample.kubeloop.dev -> 1}. */
    private Map<String, Long> watchRestarts() {
        return kit.metrics("website").informers().stream()
                .collect(Collectors.toMap(InformerStatus::resource, InformerStatus::watchRestarts));
    }

    /** Nothing lost, nothing extra: each informer caches as many objects as the API server lists in its scope. */
    private void awaitCachesMatchTheServer() {
        Function<InformerStatus, Integer> onServer = informer -> client.genericKubernetesResources(
                informer.group().isEmpty() ? informer.version() : informer.group() + "/" + informer.version(),
                informer.kind()).inNamespace(informer.namespace()).list().getItems().size();
        kit.await("every informer's cache holds what the API server has", AFTER_OUTAGE, () -> {
            for (InformerStatus informer : kit.metrics("website").informers()) {
                assertThat(informer.cachedObjects()).as(informer.describe()).isEqualTo(onServer.apply(informer));
                assertThat(informer.watching()).as(informer.describe() + " watching").isTrue();
            }
            return true;
        });
    }
}
