package dev.kubeloop.runtime.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EnqueueRequestForOwnerTest {

    private final PriorityWorkQueue<ObjectKey> queue = PriorityWorkQueue.create("test");
    private final EnqueueRequestForOwner handler = new EnqueueRequestForOwner(queue, Widget.class);

    @Test
    void mapsAnObjectToItsControllerOwnerOfThePrimaryKindInAnyVersion() {
        assertThat(handler.ownerKey(owned(ref("kubeloop.dev/v1", "Widget", "a", true))))
                .contains(ObjectKey.of("ns", "a"));
        assertThat(handler.ownerKey(owned(ref("kubeloop.dev/v2beta1", "Widget", "a", true))))
                .contains(ObjectKey.of("ns", "a"));
    }

    @Test
    void ignoresOwnersThatAreNotTheControllerOrNotThePrimaryType() {
        assertThat(handler.ownerKey(owned(ref("kubeloop.dev/v1", "Widget", "a", false)))).isEmpty();
        assertThat(handler.ownerKey(owned(ref("kubeloop.dev/v1", "Gadget", "a", true)))).isEmpty();
        assertThat(handler.ownerKey(owned(ref("other.dev/v1", "Widget", "a", true)))).isEmpty();
        assertThat(handler.ownerKey(owned())).isEmpty();
    }

    @Test
    void anUpdateMovingAnObjectToAnotherOwnerEnqueuesBoth() throws InterruptedException {
        handler.onUpdate(owned("1", ref("kubeloop.dev/v1", "Widget", "old", true)),
                owned("2", ref("kubeloop.dev/v1", "Widget", "new", true)));

        assertThat(drain()).containsExactlyInAnyOrder(ObjectKey.of("ns", "old"), ObjectKey.of("ns", "new"));
    }

    @Test
    void theInitialListAndResyncsGoInAtLowPriority() {
        ConfigMap configMap = owned(ref("kubeloop.dev/v1", "Widget", "a", true));
        handler.onAdd(configMap, true);

        assertThat(queue.stats().depthByPriority()).containsEntry(WorkQueue.LOW_PRIORITY, 1);
        handler.onAdd(configMap, false);
        assertThat(queue.stats().depthByPriority()).containsEntry(WorkQueue.NORMAL_PRIORITY, 1);
    }

    private List<ObjectKey> drain() throws InterruptedException {
        List<ObjectKey> keys = new ArrayList<>();
        while (queue.len() > 0) {
            Optional<ObjectKey> key = queue.get();
            key.ifPresent(keys::add);
            key.ifPresent(queue::done);
        }
        return keys;
    }

    private static OwnerReference ref(String apiVersion, String kind, String name, boolean controller) {
        return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(name)
                .withUid(name + "-uid").withController(controller).build();
    }

    private static ConfigMap owned(OwnerReference... refs) {
        return owned("1", refs);
    }

    private static ConfigMap owned(String resourceVersion, OwnerReference... refs) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("cm")
                .withResourceVersion(resourceVersion).withOwnerReferences(refs).endMetadata().build();
    }
}
