package dev.kubeloop.sample.e2e;

import static dev.kubeloop.sample.e2e.Polls.secondsSince;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Import;

/**
 * The operator keeps its promises when the API server goes away under it: kube-apiserver stops
 * while reconciles are in flight and comes back (same etcd, same port), and is restarted on an etcd
 * compacted past every resourceVersion the informers hold, so their watches come back with
 * 410 Gone and they must list again. Every object converges, and every informer's cache ends up
 * holding exactly what the API server has. The outage is visible while it lasts: one line per
 * informer when its list/watch starts failing and one when it recovers, the health details, the
 * status the metrics read; and so is a deleted CRD, whose informer follows it again when it returns.
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

    @Autowired
    KubeloopHealthIndicator healthIndicator;

    private MonitorLines monitor;

    static final String WEBSITES = "websites.sample.kubeloop.dev";

    /** What the informers' list/watch monitor logs during one test: level and message per line. */
    static final class MonitorLines implements AutoCloseable {
        private final Logger logger = (Logger) LoggerFactory.getLogger("dev.kubeloop.runtime.cache.ListWatchMonitor");
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
        private final Level previous = logger.getLevel();

        MonitorLines() {
            appender.start();
            logger.addAppender(appender);
            logger.setLevel(Level.INFO);
        }

        List<String> lines(String level, String text) {
            synchronized (appender) {
                return appender.list.stream().filter(event -> event.getLevel().toString().equals(level))
                        .map(ILoggingEvent::getFormattedMessage).filter(message -> message.contains(text)).toList();
            }
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
            logger.setLevel(previous);
        }
    }

    @BeforeEach
    void captureTheMonitorsLines() {
        monitor = new MonitorLines();
    }

    @AfterEach
    void everyInformerStillFollowsTheServer() {
        monitor.close();
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
        long down = System.nanoTime();
        hook.release(); // ...and go on against a server that is gone
        kit.await("every informer is reported failing", AFTER_OUTAGE,
                () -> kit.metrics("website").informers().stream().allMatch(InformerStatus::listWatchFailing));
        double detected = secondsSince(down);
        kit.await("reconciles fail while kube-apiserver is down", AFTER_OUTAGE,
                () -> kit.metrics("website").outcomes().get(ReconcileOutcome.ERROR) >= errorsBefore + 2);
        int informers = kit.metrics("website").informers().size();
        assertThat(monitor.lines("WARN", "List/watch failing")).hasSize(informers)
                .allSatisfy(line -> assertThat(line).contains("ConnectException"));
        assertThat(failingInHealth()).isEqualTo(informers);
        long up = System.nanoTime();
        apiServer.start();
        double ready = secondsSince(up);
        kit.await("every informer recovers", AFTER_OUTAGE,
                () -> kit.metrics("website").informers().stream().noneMatch(InformerStatus::listWatchFailing));
        System.out.printf("[reliability] kube-apiserver down %.1f s: every informer reported failing %.1f s after "
                + "the stop; restarted, ready after %.1f s, every informer recovered %.1f s after the restart began%n",
                (up - down) / 1e9, detected, ready, secondsSince(up));
        assertThat(monitor.lines("INFO", "List/watch recovered")).hasSize(informers);
        assertThat(monitor.lines("WARN", "List/watch failing")).as("one line per informer, not per retry")
                .hasSize(informers);
        assertThat(failingInHealth()).isZero();

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

        long restarted = System.nanoTime();
        kit.await("every informer listed again after 410 Gone", AFTER_OUTAGE, () -> {
            Map<String, Long> relists = watchRestarts();
            return relistsBefore.keySet().stream().allMatch(resource -> relists.get(resource) > relistsBefore.get(resource));
        });
        System.out.printf("[reliability] etcd compacted: every informer listed again %.1f s after kube-apiserver "
                + "was back%n", secondsSince(restarted));
        kit.await("no informer is failing", AFTER_OUTAGE,
                () -> kit.metrics("website").informers().stream().noneMatch(InformerStatus::listWatchFailing));
        // a restart may or may not outlast the failing threshold; whichever informer was reported recovered
        assertThat(monitor.lines("INFO", "List/watch recovered"))
                .hasSameSizeAs(monitor.lines("WARN", "List/watch failing"));
        Website edited = kit.awaitReconciled(client.resource(before).get(), AFTER_OUTAGE);
        kit.awaitReconciled(after, AFTER_OUTAGE);
        assertThat(kit.owned(edited, ConfigMap.class)).singleElement()
                .satisfies(page -> assertThat(page.getData()).containsEntry("index.html", "v2"));
        kit.await("the deleted Service is recreated", AFTER_OUTAGE, () -> kit.owned(edited, Service.class).stream()
                .anyMatch(s -> !s.getMetadata().getUid().equals(service.getMetadata().getUid())));
        assertThat(Sites.index(client, kit.namespace())).containsKeys("before", "after");
        awaitCachesMatchTheServer();
    }

    @Test
    void aDeletedCrdIsReportedAndItsInformerFollowsItAgainWhenItReturns() {
        LocalApiServer.assumeUnderTest();
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions()
                .withName(WEBSITES).get();
        kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "doomed", "v1")).create());

        // no namespace controller runs here: Websites other tests left behind keep their finalizers, and
        // the CRD would wait for them for ever (their operators may be gone); this operator cleans up its own
        client.resources(Website.class).inAnyNamespace().list().getItems().stream()
                .filter(site -> !kit.namespace().equals(site.getMetadata().getNamespace()))
                .forEach(site -> client.resource(site).edit(left -> {
                    left.getMetadata().setFinalizers(null);
                    return left;
                }));
        client.apiextensions().v1().customResourceDefinitions().withName(WEBSITES).delete();
        long deleted = System.nanoTime();
        // the API server deletes the Websites first: the operator's cleanup removes their finalizers
        kit.await("the CRD is gone", AFTER_OUTAGE,
                () -> client.apiextensions().v1().customResourceDefinitions().withName(WEBSITES).get() == null);
        kit.await("the Website informer is reported failing", AFTER_OUTAGE, () -> websites().listWatchFailing());
        double detected = secondsSince(deleted);
        assertThat(websites().listWatchFailure()).startsWith("HTTP 404");
        assertThat(monitor.lines("WARN", "List/watch failing")).singleElement()
                .satisfies(line -> assertThat(line).contains(WEBSITES, "HTTP 404", "CustomResourceDefinition"));
        assertThat(failingInHealth()).isEqualTo(1);

        crd.getMetadata().setResourceVersion(null);
        crd.getMetadata().setUid(null);
        crd.setStatus(null);
        client.resource(crd).create();
        long recreated = System.nanoTime();
        kit.await("the Website informer recovers", AFTER_OUTAGE, () -> !websites().listWatchFailing());
        double recovered = secondsSince(recreated);
        Website reborn = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "reborn", "v1"))
                .create(), AFTER_OUTAGE);
        System.out.printf("[reliability] CRD deleted: reported %.1f s after the delete; recreated: informer recovered "
                + "%.1f s, a new Website reconciled %.1f s after the create%n", detected, recovered,
                secondsSince(recreated));
        assertThat(kit.owned(reborn, ConfigMap.class)).hasSize(1);
        assertThat(monitor.lines("INFO", "List/watch recovered")).singleElement()
                .satisfies(line -> assertThat(line).contains(WEBSITES));
        assertThat(failingInHealth()).isZero();
        awaitCachesMatchTheServer();
    }

    private InformerStatus websites() {
        return kit.metrics("website").informers().stream().filter(informer -> informer.resource().equals(WEBSITES))
                .findFirst().orElseThrow();
    }

    /** How many informers the kubeloop health contributor shows failing (its details; its status stays UP). */
    @SuppressWarnings("unchecked")
    private long failingInHealth() {
        Health health = healthIndicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        Map<String, Object> controllers = (Map<String, Object>) health.getDetails().get("controllers");
        return controllers.values().stream()
                .flatMap(controller -> ((List<Map<String, Object>>) ((Map<String, Object>) controller)
                        .get("informers")).stream())
                .filter(informer -> informer.containsKey("listWatchFailure")).count();
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
