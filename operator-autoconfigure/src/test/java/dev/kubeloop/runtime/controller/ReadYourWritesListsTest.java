package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes in lists: a reconcile that applies children and then counts them for its status
 * (through {@code owned()}, an index, a label match or a namespace list) counts what it just wrote,
 * before the informer delivers it, and so does the next reconcile; a child it pruned is gone from
 * every list at once. The ConfigMap informer is frozen (its list and watch requests fail, its watch
 * is cut), so that the tracker is the only way a reconcile can see its own children.
 */
class ReadYourWritesListsTest extends MockClusterTestSupport {

    /** The informer's list and watch of ConfigMaps in all namespaces. */
    private static final String CONFIG_MAP_LIST_AND_WATCH = "/api/v1/configmaps";
    private static final ObjectKey WIDGET = ObjectKey.of("ns", "w");

    private final ChildCounter reconciler = new ChildCounter();

    @Test
    void aReconcileCountsTheChildrenItJustCreatedInEveryListAndSoDoesTheNext() {
        Controller<Widget> controller = start();
        Fault frozen = freezeConfigMapCache();

        client.resource(widget(2)).create();

        eventually().until(() -> reconciler.counted.size() == 1);
        assertThat(reconciler.counted.get(0)).as("the first reconcile's count")
                .isEqualTo("owned=2 index=2 labels=2 namespace=2");
        eventually().until(() -> "owned=2 index=2 labels=2 namespace=2".equals(statusMessage()));
        assertThat(controller.status().writes().pending()).as("the children, not in the cache")
                .isGreaterThanOrEqualTo(2);

        controller.enqueue(WIDGET, 0);

        eventually().until(() -> reconciler.counted.size() == 2);
        assertThat(reconciler.counted.get(1)).as("the next reconcile's count, the cache still frozen")
                .isEqualTo("owned=2 index=2 labels=2 namespace=2");

        frozen.off();
        eventually().until(() -> controller.status().writes().pending() == 0 && controller.queueStats().idle());
        assertThat(reconciler.counted).as("the children's events are echoes: no reconcile of their own").hasSize(2);
    }

    @Test
    void aChildPrunedByAReconcileIsGoneFromEveryListOfTheNext() {
        Controller<Widget> controller = start();
        client.resource(widget(2)).create();
        // reconciled, and both children in the cache
        eventually().until(() -> !reconciler.counted.isEmpty() && controller.status().writes().pending() == 0
                && controller.queueStats().idle());
        Fault frozen = freezeConfigMapCache();

        client.resources(Widget.class).inNamespace("ns").withName("w").edit(widget -> {
            widget.getSpec().setSize(1);
            return widget;
        });
        eventually().until(() -> controller.status().writes().sent().getOrDefault(WriteOperation.PRUNE, 0L) == 1
                && controller.queueStats().idle());
        int before = reconciler.counted.size();

        controller.enqueue(WIDGET, 0);

        eventually().until(() -> reconciler.counted.size() == before + 1);
        assertThat(reconciler.counted.get(before)).as("the count after w-1 was pruned, the cache still frozen")
                .isEqualTo("owned=1 index=1 labels=1 namespace=1");
        assertThat(client.configMaps().inNamespace("ns").withName("w-1").get()).isNull();
        frozen.off();
    }

    /** Lists are built per read: a reconcile may sort or empty the one it got, and the next read is whole. */
    @Test
    void aListIsTheReconcilesOwnToSortOrEmpty() {
        List<String> reads = new CopyOnWriteArrayList<>();
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                new RecordingReconciler().behaving((widget, context) -> {
                    for (int i = 0; i < 2; i++) {
                        context.apply(new ConfigMapBuilder().withNewMetadata().withName("w-" + i).endMetadata().build());
                    }
                    List<ConfigMap> listed = context.caches().list(ConfigMap.class, "ns");
                    listed.sort(Comparator.comparing((ConfigMap configMap) -> configMap.getMetadata().getName())
                            .reversed());
                    String first = listed.get(0).getMetadata().getName();
                    listed.clear();
                    reads.add(first + " then " + context.caches().list(ConfigMap.class, "ns").size());
                    return Result.done();
                }));
        manager.start();

        client.resource(widget(2)).create();

        eventually().until(() -> !reads.isEmpty());
        assertThat(reads.get(0)).isEqualTo("w-1 then 2");
    }

    private Controller<Widget> start() {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class)).index(ConfigMap.class, "app", ReadYourWritesListsTest::appOf)
                .build(), reconciler);
        manager.start();
        // the ConfigMap informer listed and watches: its cache is synced, and can be frozen
        eventually().until(() -> !cluster.watches(CONFIG_MAP_LIST_AND_WATCH).isEmpty());
        return controller;
    }

    /** Fails the informer's list and watch requests of ConfigMaps and cuts the open watches: the cache stays as it is. */
    private Fault freezeConfigMapCache() {
        Fault fault = cluster.faults().on("GET", CONFIG_MAP_LIST_AND_WATCH).answer(ApiError.internalError());
        cluster.cutWatchesOnceOpen(CONFIG_MAP_LIST_AND_WATCH, false);
        return fault;
    }

    private String statusMessage() {
        return widgetStatusMessage("ns", "w");
    }

    private static Widget widget(int children) {
        return Widget.sized("ns", "w", children);
    }

    private static List<String> appOf(ConfigMap configMap) {
        Map<String, String> labels = configMap.getMetadata().getLabels();
        return labels == null || labels.get("app") == null ? List.of() : List.of(labels.get("app"));
    }

    /**
     * Applies {@code spec.size} ConfigMaps labelled {@code app=<widget>}, then counts them in every
     * kind of list and writes the counts into the status, as a ported controller-runtime controller
     * computes its status from its children.
     */
    private static final class ChildCounter implements ResourceReconciler<Widget> {
        final List<String> counted = new CopyOnWriteArrayList<>();

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
            String app = widget.getMetadata().getName();
            String namespace = widget.getMetadata().getNamespace();
            for (int i = 0; i < widget.getSpec().getSize(); i++) {
                context.apply(new ConfigMapBuilder().withNewMetadata().withName(app + "-" + i)
                        .addToLabels("app", app).endMetadata().addToData("i", String.valueOf(i)).build());
            }
            String count = "owned=" + context.owned(ConfigMap.class).size()
                    + " index=" + context.caches().byIndex(ConfigMap.class, "app", namespace, app).size()
                    + " labels=" + context.caches().list(ConfigMap.class, namespace, Map.of("app", app)).size()
                    + " namespace=" + context.caches().list(ConfigMap.class, namespace).size();
            counted.add(count);
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage(count);
            context.applyStatus(widget);
            return Result.done();
        }
    }
}
