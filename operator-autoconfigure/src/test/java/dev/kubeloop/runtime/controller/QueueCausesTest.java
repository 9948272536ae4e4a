package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.handler.EnqueueRequestForObject;
import dev.kubeloop.runtime.handler.EnqueueRequestForOwner;
import dev.kubeloop.runtime.handler.EventHandler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Why a key was queued, as its reconcile's span reports it: the event that queued it (own, owned,
 * initial list, resync), a trigger, a requeue, a retry; the cause due first wins; one entry per
 * queued key, gone once a worker takes it.
 */
class QueueCausesTest {

    private final QueueCauses causes = new QueueCauses();
    private final PriorityWorkQueue<ObjectKey> queue = PriorityWorkQueue.create("test");
    private final WorkQueue<ObjectKey> adds = causes.queue(queue);
    private final ObjectKey shop = ObjectKey.of("ns", "shop");

    private static Widget widget(String resourceVersion) {
        Widget widget = Widget.named("ns", "shop");
        widget.getMetadata().setResourceVersion(resourceVersion);
        widget.getMetadata().setUid("uid-shop");
        return widget;
    }

    @Test
    void theObjectsOwnChangeIsAChangeAndItsFirstListAnInitialList() {
        EventHandler<Widget> own = causes.recording("primary", new EnqueueRequestForObject<>(adds));

        own.onUpdate(widget("1"), widget("2"));
        assertThat(causes.take(shop).what()).isEqualTo("change");

        own.onAdd(widget("1"), true);
        assertThat(causes.take(shop).what()).isEqualTo("initial-list");

        own.onUpdate(widget("2"), widget("2"));
        assertThat(causes.take(shop).what()).isEqualTo("resync");
    }

    @Test
    void anOwnedObjectsChangeNamesTheObjectAndTheEvent() {
        EventHandler<HasMetadata> owned = causes.recording("owned", new EnqueueRequestForOwner(adds, Widget.class));
        ConfigMap child = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("shop-pages")
                .withResourceVersion("3").addNewOwnerReference().withApiVersion("kubeloop.dev/v1").withKind("Widget")
                .withName("shop").withUid("uid-shop").withController(true).endOwnerReference().endMetadata().build();

        owned.onDelete(child);

        QueueCauses.Cause cause = causes.take(shop);
        assertThat(cause.what()).isEqualTo("owned");
        assertThat(cause.describeObject()).isEqualTo("ConfigMap ns/shop-pages delete");
    }

    @Test
    void anAddOutsideAnyEventIsATrigger() {
        adds.add(shop);

        assertThat(causes.take(shop).what()).isEqualTo("trigger");
    }

    @Test
    void theCauseDueFirstWinsAsTheQueueMergesAdds() {
        causes.note(shop, "requeue", Duration.ofMinutes(10), null);
        adds.add(shop); // a trigger now: the key is due now, and that is what made it run
        causes.note(shop, "retry", Duration.ofMinutes(1), "00-trace-span-01");

        QueueCauses.Cause cause = causes.take(shop);
        assertThat(cause.what()).isEqualTo("trigger");
        assertThat(cause.parent()).isNull();
    }

    @Test
    void aRetryKeepsTheTraceOfTheReconcileThatFailed() {
        causes.note(shop, "retry", Duration.ZERO, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

        assertThat(causes.take(shop).parent()).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void aTakenKeyLeavesNothingBehindAndAnUnnotedKeyIsUnknown() {
        for (int i = 0; i < 1_000; i++) {
            adds.add(ObjectKey.of("ns", "w" + i));
            adds.add(ObjectKey.of("ns", "w" + i)); // deduplicated like the queue
        }
        assertThat(causes.size()).isEqualTo(1_000);

        for (int i = 0; i < 1_000; i++) {
            causes.take(ObjectKey.of("ns", "w" + i));
        }

        assertThat(causes.size()).isZero();
        assertThat(causes.take(shop)).isSameAs(QueueCauses.UNKNOWN);
    }
}
