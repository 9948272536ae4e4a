package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The Website operator end to end against the kit's API server (the embedded mock, or KUBECONFIG's cluster). */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class WebsiteReconcilerTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconcileCounter reconciles;

    @Test
    void aWebsiteGetsItsThreeOwnedObjectsAndTurnsReadyWhenItsPodsAre() {
        Website site = kit.awaitReconciled(client.resource(website("hello", "<h1>hi</h1>")).create());

        Deployment deployment = single(kit.owned(site, Deployment.class));
        ConfigMap content = single(kit.owned(site, ConfigMap.class));
        Service service = single(kit.owned(site, Service.class));
        for (HasMetadata owned : new HasMetadata[] {deployment, content, service}) {
            assertThat(owned.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
                assertThat(ref.getController()).isTrue();
                assertThat(ref.getBlockOwnerDeletion()).isTrue();
                assertThat(ref.getKind()).isEqualTo("Website");
            });
        }
        assertThat(content.getData()).containsEntry("index.html", "<h1>hi</h1>");
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo(WebsiteSpec.DEFAULT_IMAGE);
        assertThat(site.getStatus().getUrl()).isEqualTo("http://hello." + kit.namespace() + ".svc");
        assertThat(condition(site, "Ready").getStatus()).isEqualTo("False");
        assertThat(condition(site, "Progressing").getStatus()).isEqualTo("True");
        kit.awaitEvent(site, "Created");

        markPodsReady(deployment, 1); // what the Deployment controller and kubelets would report

        kit.await("the Website reports Ready", () -> "True".equals(
                condition(client.resource(site).get(), "Ready").getStatus()));
        Website ready = kit.awaitReconciled(site);
        assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(1);
        assertThat(condition(ready, "Ready").getReason()).isEqualTo("Available");
        assertThat(condition(ready, "Degraded").getStatus()).isEqualTo("False");
        assertThat(WebsiteIndex.entries(client.configMaps().withName(WebsiteIndex.NAME).get()))
                .containsEntry("hello", ready.getStatus().getUrl());
    }

    @Test
    void editingTheSpecUpdatesTheOwnedObjectsAndObservedGeneration() {
        Website site = kit.awaitReconciled(client.resource(website("edited", "v1")).create());
        site.getSpec().setPage("v2");
        site.getSpec().setReplicas(3);
        Website edited = client.resource(site).update();

        Website reconciled = kit.awaitReconciled(edited);

        assertThat(reconciled.getStatus().getObservedGeneration()).isEqualTo(edited.getMetadata().getGeneration());
        // the page's ConfigMap is named by the page: the one of "v1" is pruned, the pods name the new one
        ConfigMap content = single(kit.owned(reconciled, ConfigMap.class));
        assertThat(content.getMetadata().getName()).isEqualTo(WebsiteResources.contentName(reconciled))
                .isNotEqualTo(WebsiteResources.contentName(website("edited", "v1"))).startsWith("edited-content-");
        assertThat(content.getData()).containsEntry("index.html", "v2");
        assertThat(kit.awaitEvent(reconciled, "Pruned").getMessage())
                .startsWith("ConfigMap " + WebsiteResources.contentName(website("edited", "v1")));
        Deployment deployment = single(kit.owned(reconciled, Deployment.class));
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes()).singleElement()
                .satisfies(volume -> assertThat(volume.getConfigMap().getName()).isEqualTo(content.getMetadata().getName()));
    }

    /**
     * A new page rolls the pods; the earlier page's ConfigMap stays while pods of the earlier
     * template may mount it (pruned then, their volume would fail to mount again), and is pruned
     * once the rollout replaced them all. The test writes the Deployment's status as the Deployment
     * controller does during a rollout with one surge pod.
     */
    @Test
    void anEarlierPageStaysUntilTheRolloutReplacedEveryPodThatMountsIt() {
        Website site = kit.awaitReconciled(client.resource(website("rolling", "v1")).create());
        Deployment first = single(kit.owned(site, Deployment.class));
        rollout(first, first.getMetadata().getGeneration(), 1, 1); // rolled out: one pod, of the first page
        String v1 = WebsiteResources.contentName(site);

        kit.await("the rolled-out status reconciled", () -> Integer.valueOf(1).equals(
                client.resource(site).get().getStatus().getReadyReplicas()));
        Website latest = client.resource(site).get();
        latest.getSpec().setPage("v2");
        Website edited = kit.awaitReconciled(client.resource(latest).update());
        String v2 = WebsiteResources.contentName(edited);
        Deployment rolling = single(kit.owned(edited, Deployment.class));
        assertThat(rolling.getMetadata().getGeneration()).isGreaterThan(first.getMetadata().getGeneration());
        assertThat(pages(edited)).as("while the controller has not seen the new template")
                .containsExactlyInAnyOrder(v1, v2);

        rollout(rolling, rolling.getMetadata().getGeneration(), 2, 1); // the surge pod runs v2, the old one v1
        kit.await("the rollout's status reconciled", () -> Integer.valueOf(2).equals(
                client.resource(edited).get().getStatus().getReadyReplicas()));
        kit.awaitIdle();
        assertThat(pages(edited)).as("while a pod of the first page runs").containsExactlyInAnyOrder(v1, v2);
        assertThat(kit.eventReasons(edited)).doesNotContain("Pruned");
        Website midway = client.resource(edited).get();
        assertThat(condition(midway, "Ready").getStatus()).isEqualTo("True"); // enough pods serve all along
        assertThat(condition(midway, "Progressing").getStatus()).isEqualTo("True");
        assertThat(condition(midway, "Progressing").getMessage()).endsWith("pods of an earlier template still running");

        rollout(rolling, rolling.getMetadata().getGeneration(), 1, 1); // the old pod is gone

        kit.await("the first page pruned once no pod mounts it", () -> pages(edited).equals(List.of(v2)));
        assertThat(kit.awaitEvent(edited, "Pruned").getMessage()).startsWith("ConfigMap " + v1);
        kit.await("the rollout complete", () -> "False".equals(
                condition(client.resource(edited).get(), "Progressing").getStatus()));
        assertThat(condition(client.resource(edited).get(), "Progressing").getReason()).isEqualTo("Complete");
    }

    private List<String> pages(Website site) {
        return kit.owned(site, ConfigMap.class).stream().map(page -> page.getMetadata().getName())
                .filter(name -> WebsiteResources.isPage(site, name)).sorted().toList();
    }

    /** The Deployment controller's status for {@code generation}: {@code pods} running, {@code updated} of the latest template. */
    private void rollout(Deployment deployment, Long generation, int pods, int updated) {
        client.apps().deployments().withName(deployment.getMetadata().getName()).editStatus(current -> {
            DeploymentStatus status = new DeploymentStatus();
            status.setObservedGeneration(generation);
            status.setReplicas(pods);
            status.setUpdatedReplicas(updated);
            status.setReadyReplicas(pods);
            status.setAvailableReplicas(pods);
            current.setStatus(status);
            return current;
        });
    }

    @Test
    void aDeletedOrEditedOwnedObjectIsRepaired() {
        Website site = kit.awaitReconciled(client.resource(website("repaired", "page")).create());
        Deployment original = single(kit.owned(site, Deployment.class));

        client.resource(original).delete();
        kit.await("the Deployment is recreated", () -> kit.owned(site, Deployment.class).stream()
                .anyMatch(d -> !d.getMetadata().getUid().equals(original.getMetadata().getUid())));

        // the target port, not the port: a port is the key of its list entry, and an entry under another key is
        // someone else's (server-side apply keeps both), where a field of our entry is ours to set back
        Service service = single(kit.owned(site, Service.class));
        service.getSpec().getPorts().get(0).setTargetPort(new IntOrString(8080));
        client.resource(service).update();
        kit.await("the Service's target port is set back", () -> new IntOrString("http").equals(
                single(kit.owned(site, Service.class)).getSpec().getPorts().get(0).getTargetPort()));
        assertThat(kit.awaitEvent(site, "Repaired").getMessage())
                .isEqualTo("Service repaired had been changed by someone else and was set back");
    }

    @Test
    void anInvalidImageGetsInvalidSpecAndOneWarningWithoutRetrying() {
        Website neighbour = kit.awaitReconciled(client.resource(website("neighbour", "next door")).create());
        Website invalid = website("invalid", "page");
        invalid.getSpec().setImage("nginx:::latest");
        Website site = kit.awaitReconciled(client.resource(invalid).create());

        assertThat(kit.awaitEvent(site, WebsiteReconciler.INVALID_SPEC).getType()).isEqualTo("Warning");
        Condition ready = condition(site, "Ready");
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo(WebsiteReconciler.INVALID_SPEC);
        assertThat(ready.getMessage()).contains("nginx:::latest");
        assertThat(condition(site, "Degraded").getStatus()).isEqualTo("True");
        assertThat(kit.owned(site, Deployment.class)).isEmpty();
        ObjectKey key = ObjectKey.of(site);
        assertThat(kit.controller("website").state(key)).as("no retry pending").isEqualTo(ItemState.ABSENT);
        kit.awaitIdle();
        int invalidReconciles = reconciles.count(key);
        // the create, and the finalizer Kubeloop adds (finalizer changes pass the generation filter);
        // a write's watch event arriving while one runs may add one more; never a retry
        assertThat(invalidReconciles).as("reconciles of the invalid site after it settled").isBetween(1, 3);

        // the neighbours keep being reconciled while the invalid site stays quiet: no retry storm
        for (int edit = 1; edit <= 3; edit++) {
            Website latest = client.resource(neighbour).get();
            latest.getSpec().setPage("edit " + edit);
            Website edited = kit.awaitReconciled(client.resource(latest).update());
            assertThat(single(kit.owned(edited, ConfigMap.class)).getData()).containsEntry("index.html", "edit " + edit);
        }
        Website newcomer = kit.awaitReconciled(client.resource(website("newcomer", "new")).create());
        assertThat(kit.owned(newcomer, Deployment.class)).hasSize(1);
        assertThat(condition(client.resource(neighbour).get(), "Ready").getReason())
                .isNotEqualTo(WebsiteReconciler.INVALID_SPEC);
        assertThat(reconciles.count(key)).as("reconciles of the invalid site").isEqualTo(invalidReconciles);
        assertThat(kit.controller("website").state(key)).isEqualTo(ItemState.ABSENT);
        System.out.println("[reliability] scenario=invalid-spec load=1 invalid Website among 2 valid ones, 3 edits and "
                + "1 create of the valid ones faults=spec.image does not parse result=InvalidSpec condition, one "
                + "Warning, no retry, neighbours served figures=invalidReconciles=" + invalidReconciles
                + " neighbourReconciles=" + reconciles.count(ObjectKey.of(neighbour)) + " invalidSpecWarnings="
                + kit.events(site).stream().filter(e -> WebsiteReconciler.INVALID_SPEC.equals(e.getReason())).count());

        long reconcilesBefore = kit.metrics("website").outcomes().get(ReconcileOutcome.SUCCESS);
        kit.reconcile(site); // a resync or an owned-object event would reconcile it again
        kit.await("the extra reconcile ran", () -> kit.metrics("website").outcomes()
                .get(ReconcileOutcome.SUCCESS) > reconcilesBefore);
        kit.awaitReconciled(site);
        assertThat(kit.events(site)).filteredOn(e -> WebsiteReconciler.INVALID_SPEC.equals(e.getReason()))
                .singleElement().satisfies(event -> {
                    assertThat(event.getType()).isEqualTo("Warning");
                    assertThat(event.getCount()).isEqualTo(1);
                });

        Website fixed = client.resource(site).get();
        fixed.getSpec().setImage("nginx:1.27");
        Website repaired = kit.awaitReconciled(client.resource(fixed).update());
        assertThat(condition(repaired, "Ready").getReason()).isNotEqualTo(WebsiteReconciler.INVALID_SPEC);
        assertThat(kit.owned(repaired, Deployment.class)).hasSize(1);
    }

    /**
     * Names the CRD accepts but a Service or a label value cannot carry: before, the owned objects'
     * creates failed with a 422, retried forever with a stack trace, and nothing showed on the Website.
     */
    @Test
    void aNameThatCannotNameTheServiceGetsInvalidSpecWithoutRetrying() {
        for (String name : List.of("1site", "my.site", "a" + "-long".repeat(13) + "x")) {
            Website site = kit.awaitReconciled(client.resource(website(name, "page")).create());

            Condition ready = condition(site, "Ready");
            assertThat(ready.getStatus()).as(name).isEqualTo("False");
            assertThat(ready.getReason()).as(name).isEqualTo(WebsiteReconciler.INVALID_SPEC);
            assertThat(ready.getMessage()).as(name).contains("metadata.name \"" + name + "\"", "DNS-1035 label");
            assertThat(kit.awaitEvent(site, WebsiteReconciler.INVALID_SPEC).getType()).isEqualTo("Warning");
            assertThat(kit.owned(site, Deployment.class)).as(name).isEmpty();
            assertThat(kit.controller("website").state(ObjectKey.of(site))).as("no retry pending for " + name)
                    .isEqualTo(ItemState.ABSENT);
        }
        kit.awaitIdle();
        assertThat(kit.metrics("website").outcomes().get(ReconcileOutcome.ERROR)).as("failed reconciles").isZero();
    }

    /**
     * Issue 26: a Website named like a user's Service and ConfigMap took both over (the Service's
     * selector changed, its database lost its endpoints; both got an owner reference, so the garbage
     * collector would have deleted them with the Website). Now the Website says which object blocks
     * it, and the user's objects stay as they were, until they are out of the way.
     */
    @Test
    void aWebsiteNamedLikeAUsersServiceAndConfigMapLeavesThemAloneAndSaysWhichBlocksIt() {
        Service database = client.resource(new ServiceBuilder().withNewMetadata().withName("payments")
                .withNamespace(kit.namespace()).endMetadata().withNewSpec().addToSelector("app", "payments-db")
                .addNewPort().withPort(5432).withProtocol("TCP").endPort().endSpec().build()).create();
        Website wanted = website("payments", "<h1>pay</h1>");
        String contentName = WebsiteResources.contentName(wanted); // the page's ConfigMap is named by the page
        ConfigMap settings = client.resource(new ConfigMapBuilder().withNewMetadata().withName(contentName)
                .withNamespace(kit.namespace()).endMetadata().addToData("settings", "theirs").build()).create();

        Website site = client.resource(wanted).create();

        kit.await("the Website names the ConfigMap in its way", () -> blockedBy(site, "ConfigMap " + contentName));
        assertThat(condition(client.resource(site).get(), "Ready").getMessage())
                .contains("exists and was not applied by controller website", "ApplyOptions.adopt()");
        assertThat(kit.awaitEvent(site, WebsiteReconciler.FOREIGN_OBJECT).getType()).isEqualTo("Warning");
        assertThat(client.resource(settings).get().getData()).containsExactly(Map.entry("settings", "theirs"));
        assertThat(client.resource(settings).get().getMetadata().getOwnerReferences()).isEmpty();
        assertThat(client.apps().deployments().withName("payments").get()).isNull();

        client.resource(settings).delete(); // queues the Website at once: it was in its way

        kit.await("the Website names the Service in its way", () -> blockedBy(site, "Service payments"));
        Service untouched = client.resource(database).get();
        assertThat(untouched.getSpec().getSelector()).containsExactly(Map.entry("app", "payments-db"));
        assertThat(untouched.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(untouched.getMetadata().getLabels()).doesNotContainKey("kubeloop.dev/applied-by");

        client.resource(database).delete();

        Website served = kit.awaitReconciled(site);
        assertThat(condition(served, "Ready").getReason()).isNotEqualTo(WebsiteReconciler.FOREIGN_OBJECT);
        assertThat(single(kit.owned(served, Service.class)).getSpec().getSelector())
                .containsEntry("app.kubernetes.io/instance", "payments");
    }

    private boolean blockedBy(Website site, String object) {
        Website latest = client.resource(site).get();
        return latest.getStatus() != null && latest.getStatus().condition("Ready")
                .filter(c -> WebsiteReconciler.FOREIGN_OBJECT.equals(c.getReason()))
                .filter(c -> c.getMessage().startsWith(object + " exists")).isPresent();
    }

    @Test
    void deletingAWebsiteRunsCleanupWhichRemovesItsIndexEntry() {
        Website kept = kit.awaitReconciled(client.resource(website("kept", "a")).create());
        Website deleted = kit.awaitReconciled(client.resource(website("deleted", "b")).create());
        assertThat(deleted.getMetadata().getFinalizers()).contains("website.kubeloop.dev/finalizer");
        assertThat(WebsiteIndex.entries(client.configMaps().withName(WebsiteIndex.NAME).get()))
                .containsKeys("kept", "deleted");

        client.resource(deleted).delete();

        kit.await("the Website is gone", () -> client.resource(deleted).get() == null);
        assertThat(WebsiteIndex.entries(client.configMaps().withName(WebsiteIndex.NAME).get()))
                .containsKey("kept").doesNotContainKey("deleted");
        assertThat(client.resource(kept).get()).isNotNull();
    }

    /**
     * A name at the API server's limit (253 characters) cannot name a Service: the site is never
     * served, so its cleanup has nothing to remove and writes nothing. Before, cleanup applied the
     * index as {@code website-index/<name>}, a field manager the API server refuses above 128 bytes,
     * and the finalizer held the Website for ever.
     */
    @Test
    void aWebsiteThatWasNeverServedIsDeletedWithoutTouchingTheIndex() {
        String name = "a".repeat(253);
        Website site = kit.awaitReconciled(client.resource(website(name, "page")).create());
        assertThat(condition(site, "Ready").getReason()).isEqualTo(WebsiteReconciler.INVALID_SPEC);
        kit.awaitIdle();
        ConfigMap indexBefore = client.configMaps().withName(WebsiteIndex.NAME).get();

        client.resource(site).delete();

        kit.await("the Website is gone", () -> client.resource(site).get() == null);
        ConfigMap indexAfter = client.configMaps().withName(WebsiteIndex.NAME).get();
        assertThat(indexAfter == null ? null : indexAfter.getMetadata().getResourceVersion()).as("the index's version")
                .isEqualTo(indexBefore == null ? null : indexBefore.getMetadata().getResourceVersion());
    }

    @TestConfiguration
    static class CountReconciles {

        @Bean
        ReconcileCounter reconcileCounter() {
            return new ReconcileCounter();
        }
    }

    /** Counts reconciles per key, whatever their outcome. */
    static class ReconcileCounter implements ControllerObserver {

        private final Map<ObjectKey, AtomicInteger> counts = new ConcurrentHashMap<>();

        int count(ObjectKey key) {
            AtomicInteger count = counts.get(key);
            return count == null ? 0 : count.get();
        }

        @Override
        public ControllerListener controllerRegistered(ControllerConfig<?> config) {
            return new ControllerListener() {
                @Override
                public void reconcileFinished(ReconcileReport report) {
                    counts.computeIfAbsent(report.key(), k -> new AtomicInteger()).incrementAndGet();
                }
            };
        }
    }

    private Website website(String name, String html) {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName(name).build());
        WebsiteSpec spec = new WebsiteSpec();
        spec.setPage(html);
        site.setSpec(spec);
        return site;
    }

    /** What the Deployment controller and kubelets report once {@code ready} pods of its template run. */
    private void markPodsReady(Deployment deployment, int ready) {
        rollout(deployment, deployment.getMetadata().getGeneration(), ready, ready);
    }

    private static Condition condition(Website site, String type) {
        return site.getStatus().condition(type).orElseThrow(() -> new AssertionError("no " + type + " condition"));
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
