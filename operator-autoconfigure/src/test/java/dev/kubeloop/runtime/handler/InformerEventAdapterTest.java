package dev.kubeloop.runtime.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.testing.Widget;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class InformerEventAdapterTest {

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final EventHandler<Widget> recording = new EventHandler<>() {
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
    };

    @Test
    void addsBeforeTheFirstListCompletesBelongToTheInitialList() {
        InformerEventAdapter<Widget> adapter = new InformerEventAdapter<>(Predicates.all(), recording, "widgets");

        adapter.onAdd(Widget.named("ns", "a"));
        adapter.onList("1", false);
        adapter.onAdd(Widget.named("ns", "b"));
        adapter.onList("2", false); // a relist after a watch expired is not an initial list
        adapter.onAdd(Widget.named("ns", "c"));

        assertThat(seen).containsExactly("add a (initial list)", "add b", "add c");
    }

    @Test
    void onlyTheEventsThePredicatePassesReachTheHandler() {
        EventPredicate<Widget> notB = new EventPredicate<>() {
            @Override
            public boolean create(Widget object) {
                return !object.getMetadata().getName().equals("b");
            }

            @Override
            public boolean update(Widget oldObject, Widget newObject) {
                return create(newObject);
            }

            @Override
            public boolean delete(Widget object) {
                return create(object);
            }
        };
        InformerEventAdapter<Widget> adapter = new InformerEventAdapter<>(notB, recording, "widgets");
        adapter.onList("1", true);

        for (String name : List.of("a", "b")) {
            adapter.onAdd(Widget.named("ns", name));
            adapter.onUpdate(Widget.named("ns", name), Widget.named("ns", name));
            adapter.onDelete(Widget.named("ns", name), false);
        }

        assertThat(seen).containsExactly("add a", "update a", "delete a");
    }

    @Test
    void aFailingPredicateOrHandlerDoesNotStopEventDelivery() {
        EventHandler<Widget> failing = new EventHandler<>() {
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
        };
        EventPredicate<Widget> failingPredicate = new EventPredicate<>() {
            @Override
            public boolean create(Widget object) {
                throw new IllegalStateException("bug");
            }
        };
        InformerEventAdapter<Widget> broken = new InformerEventAdapter<>(Predicates.all(), failing, "widgets");
        InformerEventAdapter<Widget> brokenFilter = new InformerEventAdapter<>(failingPredicate, recording, "widgets");

        broken.onAdd(Widget.named("ns", "a"));
        broken.onUpdate(Widget.named("ns", "a"), Widget.named("ns", "a"));
        broken.onDelete(Widget.named("ns", "a"), false);
        brokenFilter.onAdd(Widget.named("ns", "a"));
        brokenFilter.onUpdate(Widget.named("ns", "a"), Widget.named("ns", "b"));

        assertThat(seen).as("the events after the failing one still arrive").containsExactly("update b");
    }
}
