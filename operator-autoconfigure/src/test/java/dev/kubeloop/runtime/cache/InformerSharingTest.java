package dev.kubeloop.runtime.cache;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.api.Result;
import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The informer registry: shared watches, managedFields stripping, and no reconcile before the caches are complete. */
class InformerSharingTest {

    private MockCluster cluster;
    private KubernetesClient client;
    private ControllerManager manager;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
        client = cluster.client();
    }

    @AfterEach
    void tearDown() {
        if (manager != null) {
            manager.stop();
        }
        cluster.close();
    }

    private ControllerManager manager(boolean stripManagedFields) {
        manager = ControllerManager.builder(client).stripManagedFields(stripManagedFields)
                .shutdownTimeout(Duration.ofSeconds(5)).build();
        return manager;
    }

    /** Issue 27 item 6: the same index function again is one index; a different one under the name is refused. */
    @Test
    void anIndexDeclaredAgainOnASharedInformerIsKeptOnceUnlessItsFunctionDiffers() {
        InformerRegistry registry = new InformerRegistry(client, true, 0, Duration.ofSeconds(1), (i, e) -> { },
                null, null);
        Function<ConfigMap, List<String>> byName = c -> List.of(c.getMetadata().getName());
        registry.register(CacheRequest.of(ConfigMap.class).index("app", byName).declaredBy("reconciler 'owner'"));
        registry.register(CacheRequest.of(ConfigMap.class).index("app", byName).declaredBy("reconciler 'owner'"));

        assertThatThrownBy(() -> registry.register(CacheRequest.of(ConfigMap.class)
                .index("app", c -> List.of()).declaredBy("reconciler 'other'")))
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.description()).isEqualTo("The index 'app' on configmaps in all namespaces is "
                            + "declared twice with different functions: by reconciler 'owner' and by reconciler "
                            + "'other'. One informer holds one index of a name.");
                    assertThat(e.action()).isEqualTo("rename one of the indexes, or declare it once and read it "
                            + "from both");
                });
    }

    @Test
    void twoReconcilersOfOneTypeShareOneListAndOneWatch() {
        RecordingReconciler first = new RecordingReconciler();
        RecordingReconciler second = new RecordingReconciler();
        manager(true).register(ControllerConfig.builder("first", Widget.class).build(), first);
        manager.register(ControllerConfig.builder("second", Widget.class).build(), second);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> first.count("ns/a") == 1 && second.count("ns/a") == 1);
        assertThat(cluster.watches("/widgets")).hasSize(1);
        assertThat(cluster.requests(r -> r.getMethod().equals("GET") && r.getPath().contains("/widgets?")
                && !r.getPath().contains("watch=true"))).as("lists").hasSize(1);
    }

    @Test
    void withoutAPageSizeAnInformerListsEverythingInOneResponseFromTheWatchCache() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager(true).register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        assertThat(lists()).singleElement().satisfies(path -> assertThat(path).contains("resourceVersion=0")
                .doesNotContain("limit="));
    }

    @Test
    void withAPageSizeAnInformerAsksForPagesOfThatSize() {
        for (int i = 0; i < 3; i++) {
            client.resource(Widget.named("ns", "w-" + i)).create();
        }
        manager = ControllerManager.builder(client).listPageSize(2).shutdownTimeout(Duration.ofSeconds(5)).build();
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        eventually().until(() -> reconciler.calls().size() >= 3);
        // the mock ignores the limit and answers with everything: one request, no continue token
        assertThat(lists()).singleElement().satisfies(path -> assertThat(path).contains("limit=2")
                .doesNotContain("resourceVersion=0"));
    }

    @Test
    void workersStartOnlyOnceEveryHandlerHasTheFirstListsAdds() throws Exception {
        for (int i = 0; i < 3; i++) {
            client.resource(Widget.named("ns", "w-" + i)).create();
        }
        // a second controller's filter holds fabric8's event executor, which both controllers' handlers share:
        // the store has the list (the informer says it synced) while the adds wait to reach the handlers
        CountDownLatch filtering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingReconciler reconciler = new RecordingReconciler();
        manager(true).register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.register(ControllerConfig.builder("slow", Widget.class).primaryFilter(new EventPredicate<Widget>() {
            @Override
            public boolean create(Widget widget) {
                filtering.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
        }).build(), (widget, context) -> Result.done());
        CompletableFuture<Void> start = CompletableFuture.runAsync(manager::start);
        try {
            assertThat(filtering.await(30, TimeUnit.SECONDS)).isTrue();
            eventually().until(() -> manager.informers().get(0).cachedObjects() == 3);

            assertThat(manager.hasSynced()).as("synced while adds are on their way to the handlers").isFalse();
            assertThat(start).isNotDone();
        } finally {
            release.countDown();
        }
        start.get(30, TimeUnit.SECONDS);
        eventually().until(() -> reconciler.calls().size() >= 3
                && manager.controller("widget").orElseThrow().status().queue().idle());

        // every add was queued before the workers started: one reconcile per object, none for a late add
        assertThat(reconciler.calls()).extracting(call -> call.widget().getMetadata().getName())
                .containsExactlyInAnyOrder("w-0", "w-1", "w-2");
    }

    private List<String> lists() {
        return cluster.requests(r -> r.getMethod().equals("GET") && r.getPath().contains("/widgets?")
                && !r.getPath().contains("watch=true")).stream().map(r -> r.getPath()).toList();
    }

    @Test
    void anOwnedTypeSharesTheInformerOfAnotherReconcilersSameScope() {
        manager(true).register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                new RecordingReconciler());
        manager.register(ControllerConfig.builder("configmap", ConfigMap.class).build(),
                (configMap, context) -> Result.done());
        manager.start();

        assertThat(cluster.watches("/configmaps")).hasSize(1);
    }

    @Test
    void managedFieldsAreStrippedFromCachedObjects() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager(true).register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(withManagedFields(Widget.named("ns", "a"))).create();

        eventually().until(() -> reconciler.count("ns/a") == 1);
        assertThat(reconciler.calls().get(0).widget().getMetadata().getManagedFields()).isNullOrEmpty();
    }

    @Test
    void managedFieldsAreKeptWhenStrippingIsSwitchedOff() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager(false).register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(withManagedFields(Widget.named("ns", "a"))).create();

        eventually().until(() -> reconciler.count("ns/a") == 1);
        assertThat(reconciler.calls().get(0).widget().getMetadata().getManagedFields()).hasSize(1);
    }

    @Test
    void noReconcileRunsBeforeEveryCacheHasSynced() {
        client.resource(Widget.named("ns", "a")).create();
        // the owned ConfigMaps' first list answers late: the Widget cache is complete long before
        cluster.server().expect().get().delay(500).withPath("/api/v1/configmaps?resourceVersion=0")
                .andReturn(200, new ConfigMapListBuilder().withNewMetadata().withResourceVersion("1").endMetadata()
                        .build())
                .once();
        List<Boolean> syncedAtReconcile = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            syncedAtReconcile.add(manager.hasSynced());
            return Result.done();
        });
        manager(true).register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                reconciler);

        manager.start();

        eventually().until(() -> reconciler.count("ns/a") == 1);
        assertThat(syncedAtReconcile).containsExactly(true);
    }

    private static Widget withManagedFields(Widget widget) {
        widget.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubectl")
                .withOperation("Apply").withApiVersion("kubeloop.dev/v1").build()));
        return widget;
    }
}
