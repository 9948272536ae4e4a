package dev.kubeloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.Widget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

class InformerEventAdapterTest {

    private final List<String> seen = new ArrayList<>();
    private final InformerEventAdapter<Widget> adapter = new InformerEventAdapter<>(new EventHandler<>() {
        @Override
        public void onAdd(Widget object, boolean initialList) {
            seen.add("add " + object.getMetadata().getName() + (initialList ? " (initial list)" : ""));
        }

        @Override
        public void onUpdate(Widget oldObject, Widget newObject) {
            seen.add("update " + newObject.getMetadata().getName());
        }

        @Override
        public void onDelete(Widget object) {
            seen.add("delete " + object.getMetadata().getName());
        }
    }, "widgets");

    @Test
    void addsBeforeTheFirstListCompletesBelongToTheInitialList() {
        adapter.onAdd(Widget.named("ns", "a"));
        adapter.onList("1", false);
        adapter.onAdd(Widget.named("ns", "b"));
        adapter.onList("2", false); // a relist after a watch expired is not an initial list
        adapter.onAdd(Widget.named("ns", "c"));

        assertThat(seen).containsExactly("add a (initial list)", "add b", "add c");
    }

    @Test
    void aFailingHandlerDoesNotStopEventDelivery() {
        InformerEventAdapter<Widget> failing = new InformerEventAdapter<>(new EventHandler<>() {
            @Override
            public void onAdd(Widget object, boolean initialList) {
                throw new IllegalStateException("bug");
            }

            @Override
            public void onUpdate(Widget oldObject, Widget newObject) {
                throw new IllegalStateException("bug");
            }

            @Override
            public void onDelete(Widget object) {
                throw new IllegalStateException("bug");
            }
        }, "widgets");

        failing.onAdd(Widget.named("ns", "a"));
        failing.onUpdate(Widget.named("ns", "a"), Widget.named("ns", "a"));
        failing.onDelete(Widget.named("ns", "a"), false);
    }

    @Test
    void countsReListsButNotTheFirstList() {
        LongAdder relists = new LongAdder();
        InformerEventAdapter<Widget> counting = new InformerEventAdapter<>(new EventHandler<>() {
            @Override
            public void onAdd(Widget object, boolean initialList) {
            }

            @Override
            public void onUpdate(Widget oldObject, Widget newObject) {
            }

            @Override
            public void onDelete(Widget object) {
            }
        }, "widgets", relists);

        counting.onBeforeList(null); // the first list
        counting.onBeforeList("42"); // after a 410 Gone or a failed watch
        counting.onBeforeList("57");

        assertThat(relists.sum()).isEqualTo(2);
        adapter.onBeforeList("42"); // an adapter without a counter ignores it
    }
}
