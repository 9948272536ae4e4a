package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The caches of one kind, on the embedded (mock) API server: an owned kind limited by a label
 * selector or to the objects the reconciler applied (issue 27, item 4), and a kind both owned and
 * watched with a selector, whose reads answer from every cache of the kind (item 5).
 */
class KindCachesTest extends MockClusterTestSupport {

    /** The watch: Pods labelled for an Application by someone else, not the ones it applied. */
    private static final String LABELLED_BY_OTHERS = "app,!kubeloop.dev/applied-by";

    private static Pod pod(String namespace, String name, Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels)
                .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer()
                .endSpec().build();
    }

    private static ConfigMap configMap(String name, Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withLabels(labels)
                .endMetadata().addToData("k", "v").build();
    }

    /** The Widget a Pod names in its {@code app} label, in the Pod's namespace or in {@code ns}. */
    private static Optional<ObjectKey> appOf(Pod pod) {
        String app = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get("app");
        return app == null ? Optional.empty() : Optional.of(ObjectKey.of("ns", app));
    }

    private static Set<String> names(List<? extends HasMetadata> objects) {
        return objects.stream().map(object -> object.getMetadata().getName())
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void aReconcileMappedFromAWatchOutsideTheOwnedScopeReadsThePodThatTriggeredIt() {
        client.resource(new NamespaceBuilder().withNewMetadata().withName("other").endMetadata().build()).create();
        client.resource(Widget.named("ns", "w")).create();
        List<Optional<Pod>> seen = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            seen.add(context.caches().get(Pod.class, ObjectKey.of("other", "p")));
            return Result.done();
        });
        // owned Pods are cached in the reconciler's namespace; the watch reads another one: two caches of the kind
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .namespaces(List.of("ns")).owns(Pod.class)
                .watch(Watch.of(Pod.class).inNamespaces("other").mapper(Mappers.toKey(KindCachesTest::appOf)))
                .build(), reconciler);
        manager.start();
        eventually().until(() -> reconciler.calls().size() >= 1 && controller.queueStats().idle());
        seen.clear();

        client.resource(pod("other", "p", Map.of("app", "w"))).create();

        eventually().until(() -> !seen.isEmpty() && controller.queueStats().idle());
        assertThat(seen).as("every reconcile after the Pod appeared reads it").allSatisfy(pod -> assertThat(pod)
                .hasValueSatisfying(p -> assertThat(p.getMetadata().getName()).isEqualTo("p")));
    }

    @Test
    void ownedAppliedOnlyAndWatchedWithASelectorEveryReconcileSeesThePodLabelledForIt() {
        everyReconcileSeesThePodLabelledForIt(builder -> builder.ownsApplied(Pod.class));
    }

    /** The declarations: both caches may hold a labelled Pod, each informer delivering it in its own time. */
    @Test
    void ownedWholeAndWatchedWithASelectorEveryReconcileSeesThePodLabelledForIt() {
        everyReconcileSeesThePodLabelledForIt(builder -> builder.owns(Pod.class));
    }

    private void everyReconcileSeesThePodLabelledForIt(UnaryOperator<ControllerConfig.Builder<Widget>> owning) {
        int widgets = 40;
        for (int i = 0; i < widgets; i++) {
            client.resource(Widget.named("ns", "w" + i)).create();
        }
        ConcurrentMap<String, List<Boolean>> sawItsPod = new ConcurrentHashMap<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            String name = widget.getMetadata().getName();
            boolean listed = context.caches().list(Pod.class, "ns").stream()
                    .anyMatch(pod -> name.equals(pod.getMetadata().getLabels().get("app")));
            boolean got = context.caches().get(Pod.class, ObjectKey.of("ns", name + "-pod")).isPresent();
            sawItsPod.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(listed && got);
            return Result.done();
        });
        Controller<Widget> controller = manager.register(owning.apply(ControllerConfig.builder("widget", Widget.class))
                .watch(Watch.of(Pod.class).labelSelector(LABELLED_BY_OTHERS).mapper(Mappers.toKey(KindCachesTest::appOf)))
                .build(), reconciler);
        manager.start();
        eventually().until(() -> reconciler.calls().size() >= widgets && controller.queueStats().idle());
        sawItsPod.clear();

        for (int i = 0; i < widgets; i++) {
            client.resource(pod("ns", "w" + i + "-pod", Map.of("app", "w" + i))).create();
        }

        eventually().until(() -> sawItsPod.size() == widgets && controller.queueStats().idle());
        assertThat(sawItsPod).as("reconciles that did not see the Pod that triggered them")
                .allSatisfy((widget, saw) -> assertThat(saw).as(widget).containsOnly(true));
    }

    @Test
    void anOwnedKindWithASelectorCachesOnlyTheMatchingObjects() {
        client.resource(Widget.named("ns", "w")).create();
        for (int i = 0; i < 5; i++) {
            client.resource(configMap("unrelated-" + i, Map.of())).create();
        }
        client.resource(configMap("managed", Map.of("managed", "true"))).create();
        List<Set<String>> cached = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            cached.add(names(context.caches().list(ConfigMap.class, "ns")));
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(ConfigMap.class).owns(ConfigMap.class, "managed=true").build(), reconciler);
        manager.start();

        eventually().until(() -> !cached.isEmpty() && controller.queueStats().idle());
        assertThat(cached).allSatisfy(names -> assertThat(names).containsExactly("managed"));
    }

    @Test
    void anAppliedOnlyOwnedCacheTakesInAChildMadeBeforeOnceTheFirstApplyLabelsIt() {
        Widget widget = client.resource(Widget.named("ns", "w")).create();
        for (int i = 0; i < 5; i++) {
            client.resource(configMap("unrelated-" + i, Map.of())).create();
        }
        // a child an earlier version made with client().create(): owned by the Widget, without the applied-by label
        ConfigMap before = configMap("w-config", Map.of());
        before.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(
                widget.getApiVersion()).withKind("Widget").withName("w").withUid(widget.getMetadata().getUid())
                .withController(true).build()));
        client.resource(before).create();
        List<Set<String>> owned = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((w, context) -> {
            context.apply(configMap("w-config", Map.of()));
            owned.add(names(context.owned(ConfigMap.class)));
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .ownsApplied(ConfigMap.class).build(), reconciler);
        manager.start();

        eventually().until(() -> client.configMaps().inNamespace("ns").withName("w-config").get().getMetadata()
                .getLabels().containsKey(ControllerWrites.APPLIED_BY));
        eventually().until(() -> controller.queueStats().idle() && !owned.isEmpty()
                && owned.get(owned.size() - 1).equals(Set.of("w-config")));
        List<Set<String>> cached = new CopyOnWriteArrayList<>();
        reconciler.behaving((w, context) -> {
            cached.add(names(context.caches().list(ConfigMap.class, "ns")));
            return Result.done();
        });
        // a change to the child, now labelled, reaches the reconciler through the limited cache
        client.configMaps().inNamespace("ns").withName("w-config").edit(cm -> {
            cm.getData().put("drift", "yes");
            return cm;
        });
        eventually().until(() -> !cached.isEmpty() && controller.queueStats().idle());
        assertThat(cached).allSatisfy(names -> assertThat(names).containsExactly("w-config"));
    }
}
