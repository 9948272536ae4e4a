package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileTrigger;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.Gadget;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Watches of related resources, end to end on the mock API server: a mapper through an index,
 * metadata-only watches, per-watch predicates, cluster-scoped types, indexes read from a
 * reconcile, shared informers, external triggers and optional types.
 */
class WatchesTest extends MockClusterTestSupport {

    private static final String BY_SECRET = "spec.secretName";

    private static Widget widget(String name, String secretName) {
        Widget widget = Widget.named("ns", name);
        widget.getSpec().setSecretName(secretName);
        return widget;
    }

    private static Secret secret(String name, String value) {
        return new SecretBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata()
                .withStringData(Map.of("password", value)).build();
    }

    private static List<String> secretNameOf(Widget widget) {
        return widget.getSpec().getSecretName() == null ? List.of() : List.of(widget.getSpec().getSecretName());
    }

    /** Waits until every Widget was reconciled once and nothing is queued, then forgets the calls. */
    private void settle(Controller<Widget> controller, RecordingReconciler reconciler, int widgets) {
        eventually().until(() -> reconciler.calls().stream().map(RecordingReconciler.Call::key).distinct().count()
                == widgets && controller.queueStats().idle());
        reconciler.reset();
    }

    @Test
    void aSecretChangeReconcilesExactlyTheWidgetsWhoseIndexNamesIt() {
        client.resource(secret("db", "1")).create();
        client.resource(secret("cache", "1")).create();
        for (int i = 0; i < 6; i++) {
            client.resource(widget("w" + i, i % 2 == 0 ? "db" : "cache")).create();
        }
        client.resource(widget("plain", null)).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .index(Widget.class, BY_SECRET, WatchesTest::secretNameOf)
                .watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Widget.class, BY_SECRET))).build(), reconciler);
        manager.start();
        settle(controller, reconciler, 7);

        client.resource(secret("db", "2")).update();

        eventually().until(() -> reconciler.calls().size() == 3 && controller.queueStats().idle());
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key)
                .containsExactlyInAnyOrder("ns/w0", "ns/w2", "ns/w4");

        reconciler.reset();
        client.secrets().inNamespace("ns").withName("cache").delete();
        eventually().until(() -> reconciler.calls().size() == 3 && controller.queueStats().idle());
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key)
                .containsExactlyInAnyOrder("ns/w1", "ns/w3", "ns/w5");
    }

    @Test
    void aWidgetThatStopsReferringToASecretIsFoundByTheNewNameOnlyAndTheIndexIsReadFromAReconcile() {
        client.resource(secret("a", "1")).create();
        client.resource(secret("b", "1")).create();
        client.resource(widget("w", "a")).create();
        List<List<String>> referrersOfB = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            referrersOfB.add(context.caches().byIndex(Widget.class, BY_SECRET, "ns", "b").stream()
                    .map(w -> w.getMetadata().getName()).toList());
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .index(Widget.class, BY_SECRET, WatchesTest::secretNameOf)
                .watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Widget.class, BY_SECRET))).build(), reconciler);
        manager.start();
        settle(controller, reconciler, 1);

        Widget moved = client.resources(Widget.class).inNamespace("ns").withName("w").get();
        moved.getSpec().setSecretName("b");
        moved.getMetadata().setGeneration(null);
        client.resource(moved).update();
        eventually().until(() -> !referrersOfB.isEmpty() && referrersOfB.get(referrersOfB.size() - 1).equals(List.of("w")));
        eventually().until(controller.queueStats()::idle);
        reconciler.reset();

        client.resource(secret("a", "2")).update();
        client.resource(secret("b", "2")).update();

        eventually().until(() -> reconciler.calls().size() >= 1 && controller.queueStats().idle());
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key).containsOnly("ns/w");
        assertThat(reconciler.calls()).as("only b's change maps to w now").hasSize(1);
    }

    @Test
    void aMetadataOnlyWatchCachesNamesAndVersionsButNotTheData() {
        client.resource(secret("db", "s3cr3t")).create();
        client.resource(widget("w", "db")).create();
        List<Secret> seenByTheMapper = new CopyOnWriteArrayList<>();
        List<Optional<Secret>> cachedInReconcile = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            cachedInReconcile.add(context.cached(Secret.class, ObjectKey.of("ns", "db")));
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .index(Widget.class, BY_SECRET, WatchesTest::secretNameOf)
                .watch(Watch.of(Secret.class).metadataOnly().mapper((secret, caches) -> {
                    seenByTheMapper.add(secret);
                    return Mappers.byIndex(Widget.class, BY_SECRET).map(secret, caches);
                })).build(), reconciler);
        manager.start();
        settle(controller, reconciler, 1);

        client.resource(secret("db", "n3w")).update();
        eventually().until(() -> reconciler.calls().size() == 1 && controller.queueStats().idle());

        assertThat(seenByTheMapper).isNotEmpty().allSatisfy(secret -> {
            assertThat(secret.getMetadata().getName()).isEqualTo("db");
            assertThat(secret.getMetadata().getResourceVersion()).isNotBlank();
            assertThat(secret.getData()).as("data is not cached").isNullOrEmpty();
            assertThat(secret.getStringData()).isNullOrEmpty();
        });
        assertThat(cachedInReconcile.get(cachedInReconcile.size() - 1)).hasValueSatisfying(secret -> {
            assertThat(secret.getKind()).isEqualTo("Secret");
            assertThat(secret.getData()).isNullOrEmpty();
        });
        assertThat(manager.informers()).filteredOn(informer -> informer.resource().equals("secrets"))
                .singleElement().satisfies(informer -> assertThat(informer.metadataOnly()).isTrue());
        // what a real API server needs to send metadata only (the mock ignores it)
        assertThat(cluster.requests(r -> r.getPath().startsWith("/api/v1/secrets") && r.getMethod().equals("GET")))
                .isNotEmpty().allSatisfy(request -> assertThat(request.getHeader("Accept")).startsWith(
                        "application/json;as=" + (request.getPath().contains("watch=true") ? "PartialObjectMetadata;"
                                : "PartialObjectMetadataList;") + "g=meta.k8s.io;v=v1"));
        Secret stored = client.secrets().inNamespace("ns").withName("db").get();
        assertThat(stored.getData().isEmpty() && stored.getStringData().isEmpty())
                .as("the server holds the data the cache left out").isFalse();
    }

    @Test
    void aWatchPredicateDecidesWhichChangesOfTheWatchedTypeMatter() {
        client.resource(secret("db", "1")).create();
        client.resource(widget("w", "db")).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .index(Widget.class, BY_SECRET, WatchesTest::secretNameOf)
                .watch(Watch.of(Secret.class).predicate(Predicates.labelsChanged())
                        .mapper(Mappers.byIndex(Widget.class, BY_SECRET))).build(), reconciler);
        manager.start();
        settle(controller, reconciler, 1);

        client.resource(secret("db", "2")).update(); // data only: filtered
        Secret labelled = secret("db", "2");
        labelled.getMetadata().setLabels(Map.of("rotated", "yes"));
        client.resource(labelled).update(); // labels: passes

        eventually().until(() -> reconciler.calls().size() == 1 && controller.queueStats().idle());
        assertThat(reconciler.calls()).hasSize(1);
    }

    @Test
    void aClusterScopedTypeIsWatchedAcrossNamespacesAndMappedToWidgets() {
        client.resource(new NamespaceBuilder().withNewMetadata().withName("ns").endMetadata().build()).create();
        client.resource(widget("w1", null)).create();
        client.resource(widget("w2", null)).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        // a Namespace's change reconciles every Widget in it: a list of one namespace, not of all Widgets
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .namespaces(List.of("ns"))
                .watch(Watch.of(Namespace.class).predicate(Predicates.labelsChanged())
                        .mapper((namespace, caches) -> caches.list(Widget.class, namespace.getMetadata().getName())
                                .stream().map(ObjectKey::of).toList())).build(), reconciler);
        manager.start();
        settle(controller, reconciler, 2);

        client.namespaces().withName("ns").edit(ns -> {
            ns.getMetadata().setLabels(Map.of("tier", "gold"));
            return ns;
        });

        eventually().until(() -> reconciler.calls().size() == 2 && controller.queueStats().idle());
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key)
                .containsExactlyInAnyOrder("ns/w1", "ns/w2");
        assertThat(manager.informers()).filteredOn(informer -> informer.resource().equals("namespaces"))
                .singleElement().satisfies(informer -> assertThat(informer.namespace()).isNull());
    }

    private static ConfigMap configMap(String name, String app) {
        return new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withNamespace("ns")
                .withName(name).withLabels(Map.of("app", app)).endMetadata().build();
    }

    private static List<String> appOf(ConfigMap configMap) {
        String app = configMap.getMetadata().getLabels() == null ? null : configMap.getMetadata().getLabels().get("app");
        return app == null ? List.of() : List.of(app);
    }

    /** Issue 27 item 6: owned and watched in one scope share one informer, which got the index twice. */
    @Test
    void oneIndexOnAKindBothOwnedAndWatchedInOneScopeIsDeclaredOnceOnTheirSharedInformer() {
        ownedAndWatchedWithOneIndex("");
    }

    @Test
    void oneIndexOnAKindOwnedAndWatchedWithALabelSelectorIsOnBothInformers() {
        ownedAndWatchedWithOneIndex("app=shop");
    }

    private void ownedAndWatchedWithOneIndex(String watchSelector) {
        client.resource(configMap("a", "shop")).create();
        client.resource(configMap("b", "blog")).create();
        client.resource(widget("w", null)).create();
        List<List<String>> shop = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            shop.add(context.caches().byIndex(ConfigMap.class, "app", "ns", "shop").stream()
                    .map(c -> c.getMetadata().getName()).toList());
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class))
                .index(ConfigMap.class, "app", WatchesTest::appOf)
                .watch(Watch.of(ConfigMap.class).labelSelector(watchSelector)
                        .mapper((c, caches) -> List.of(ObjectKey.of("ns", "w"))))
                .build(), reconciler);
        manager.start();

        eventually().until(() -> !shop.isEmpty() && controller.queueStats().idle());
        assertThat(shop.get(shop.size() - 1)).containsExactly("a");
    }

    @Test
    void threeControllersWatchingSecretsInOneScopeShareOneInformerAndOneWatch() {
        client.resource(secret("db", "1")).create();
        for (String name : List.of("red", "green", "blue")) {
            manager.register(ControllerConfig.builder(name, Widget.class).labelSelector("color=" + name)
                    .index(Widget.class, BY_SECRET, WatchesTest::secretNameOf)
                    .watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Widget.class, BY_SECRET))).build(),
                    new RecordingReconciler());
        }
        manager.start();

        List<InformerStatus> secretInformers = manager.informers().stream()
                .filter(informer -> informer.resource().equals("secrets")).toList();
        assertThat(secretInformers).singleElement();
        eventually().until(() -> cluster.watches("/api/v1/secrets").size() >= 1);
        assertThat(cluster.watches("/api/v1/secrets")).as("one watch of Secrets for three controllers").hasSize(1);
    }

    @Test
    void anExternalTriggerQueuesAReconcileAtTheGivenPriority() {
        client.resource(widget("w", null)).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        settle(controller, reconciler, 1);

        ReconcileTrigger byName = manager.of("widget");
        ReconcileTrigger byType = manager.of(Widget.class);
        assertThat(byName.enqueue(ObjectKey.of("ns", "w"), ReconcileTrigger.HIGH_PRIORITY)).isTrue();
        eventually().until(() -> reconciler.calls().size() == 1);
        assertThat(byType.enqueue(ObjectKey.of("ns", "w"))).isTrue();
        eventually().until(() -> reconciler.calls().size() == 2);

        assertThat(byType).isSameAs(byName);
        assertThatThrownBy(() -> manager.of("gadget")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("No reconciler is named 'gadget' (reconcilers: [widget])");
        assertThatThrownBy(() -> manager.of(ConfigMap.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("No reconciler reconciles ConfigMap");
    }

    @Test
    void anOptionalWatchWaitsForItsTypeWithoutHoldingTheStartBackAndStartsWhenItAppears() {
        useManager(ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .optionalTypePollInterval(Duration.ofMillis(200)).build());
        client.resource(widget("w", null)).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .watch(Watch.of(Gadget.class).optional().mapper((gadget, caches) -> caches.list(Widget.class,
                        gadget.getSpec().getWidgetNamespace()).stream().map(ObjectKey::of).toList())).build(),
                reconciler);
        manager.start(); // the Gadget CRD is not installed: no failure

        assertThat(manager.hasSynced()).as("a waiting optional type holds readiness back").isTrue();
        assertThat(controller.status().synced()).isTrue();
        assertThat(gadgetInformer()).satisfies(informer -> {
            assertThat(informer.optional()).isTrue();
            assertThat(informer.waiting()).isTrue();
            assertThat(informer.started()).isFalse();
        });
        settle(controller, reconciler, 1);

        cluster.install(Gadget.class);
        eventually().until(() -> gadgetInformer().synced());
        client.resource(Gadget.named("g", "ns")).create();

        eventually().until(() -> reconciler.calls().size() == 1 && controller.queueStats().idle());
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key).containsExactly("ns/w");
        assertThat(gadgetInformer().waiting()).isFalse();
    }

    @Test
    void anOptionalPrimaryTypeWaitsAndIsReconciledOnceItsCrdIsInstalled() {
        useManager(ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .optionalTypePollInterval(Duration.ofMillis(200)).build());
        Controller<Gadget> controller = manager.register(ControllerConfig.builder("gadget", Gadget.class)
                .optionalPrimary().build(), (gadget, context) -> Result.done());
        manager.start();
        assertThat(controller.status().synced()).isTrue();

        cluster.install(Gadget.class);
        eventually().until(() -> gadgetInformer().synced());
        client.resource(Gadget.named("g", "ns")).create();

        eventually().until(() -> controller.state(ObjectKey.clusterScoped("g")) == ItemState.ABSENT
                && controller.count(ReconcileOutcome.SUCCESS) == 1);
    }

    @Test
    void whenAnOptionalTypeGoesEveryObjectItsHandlersHadIsReportedDeletedAlsoOneWhoseDeleteWasOnItsWay()
            throws Exception {
        useManager(ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .optionalTypePollInterval(Duration.ofMillis(200)).build());
        cluster.install(Gadget.class);
        client.resource(Gadget.named("g1", "ns")).create();
        client.resource(Gadget.named("g2", "ns")).create();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Queue<String> deletes = new ConcurrentLinkedQueue<>();
        manager.register(ControllerConfig.builder("widget", Widget.class).watch(Watch.of(Gadget.class).optional()
                .predicate(new EventPredicate<Gadget>() {
                    @Override
                    public boolean update(Gadget oldGadget, Gadget newGadget) {
                        // holds fabric8's event executor: later notifications wait behind this one
                        holding.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return true;
                    }

                    @Override
                    public boolean delete(Gadget gadget) {
                        deletes.add(gadget.getMetadata().getName());
                        return true;
                    }
                }).mapper((gadget, caches) -> List.of())).build(), new RecordingReconciler());
        manager.start();
        try {
            client.resources(Gadget.class).withName("g2").edit(gadget -> {
                gadget.getMetadata().setLabels(Map.of("edited", "yes"));
                return gadget;
            });
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            client.resources(Gadget.class).withName("g1").delete();
            // the store dropped g1 while its delete notification waits for the executor
            eventually().until(() -> gadgetInformer().cachedObjects() == 1);

            client.apiextensions().v1().customResourceDefinitions()
                    .withName(HasMetadata.getFullResourceName(Gadget.class)).delete();

            eventually().until(() -> gadgetInformer().waiting() && deletes.containsAll(List.of("g1", "g2")));
        } finally {
            release.countDown();
        }
    }

    private InformerStatus gadgetInformer() {
        return manager.informers().stream().filter(informer -> informer.kind().equals("Gadget")).findFirst()
                .orElseThrow();
    }

    private void useManager(ControllerManager replacement) {
        manager.stop();
        manager = replacement;
    }
}
