package dev.kubeloop.runtime.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.testing.Widget;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnqueueRequestForObjectTest {

    private final PriorityWorkQueue<ObjectKey> queue = PriorityWorkQueue.create("test");
    private final EnqueueRequestForObject<Widget> handler = new EnqueueRequestForObject<>(queue);

    @Test
    void theInitialListGoesInAtLowPriorityLaterAddsAtNormal() {
        handler.onAdd(widget("a", "1"), true);
        handler.onAdd(widget("b", "1"), false);

        assertThat(queue.stats().depthByPriority())
                .isEqualTo(Map.of(WorkQueue.NORMAL_PRIORITY, 1, WorkQueue.LOW_PRIORITY, 1));
    }

    @Test
    void aResyncGoesInAtLowPriorityARealUpdateAtNormal() {
        handler.onUpdate(widget("a", "1"), widget("a", "1"));
        handler.onUpdate(widget("b", "1"), widget("b", "2"));

        assertThat(queue.stats().depthByPriority())
                .isEqualTo(Map.of(WorkQueue.NORMAL_PRIORITY, 1, WorkQueue.LOW_PRIORITY, 1));
    }

    @Test
    void aDeleteEnqueuesTheKeySoTheWorkerCanForgetIt() throws InterruptedException {
        handler.onDelete(widget("a", "1"));

        assertThat(queue.get()).contains(ObjectKey.of("ns", "a"));
    }

    private static Widget widget(String name, String resourceVersion) {
        Widget widget = Widget.named("ns", name);
        widget.getMetadata().setResourceVersion(resourceVersion);
        return widget;
    }
}
