package dev.kubeloop.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.Widget;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in predicates as a table: one row per kind of update, one column per predicate,
 * each cell whether the update passes. Every row is run as a real update (a new resourceVersion)
 * and as a resync (the same resourceVersion), which every built-in lets through except
 * resourceVersionChanged.
 */
class PredicatesTest {

    /** The columns. */
    private static final List<String> PREDICATES = List.of("generationAware", "generationChanged", "labelsChanged",
            "annotationsChanged", "finalizersChanged", "deletionRequested", "resourceVersionChanged");

    private static EventPredicate<Widget> predicate(String name) {
        return switch (name) {
            case "generationAware" -> Predicates.generationAware();
            case "generationChanged" -> Predicates.generationChanged();
            case "labelsChanged" -> Predicates.labelsChanged();
            case "annotationsChanged" -> Predicates.annotationsChanged();
            case "finalizersChanged" -> Predicates.finalizersChanged();
            case "deletionRequested" -> Predicates.deletionRequested();
            case "resourceVersionChanged" -> Predicates.resourceVersionChanged();
            default -> throw new IllegalArgumentException(name);
        };
    }

    static Stream<Arguments> updates() {
        // passes in the order of PREDICATES:        aware  gen    labels annot  final  delete rv
        return Stream.of(
                row("status only", w -> w.setStatus(new Widget.Status()),
                        false, false, false, false, false, false, true),
                row("nothing but the resourceVersion", w -> { },
                        false, false, false, false, false, false, true),
                row("generation (spec)", w -> w.getMetadata().setGeneration(2L),
                        true, true, false, false, false, false, true),
                row("labels", w -> w.getMetadata().setLabels(Map.of("tier", "web")),
                        true, false, true, false, false, false, true),
                row("annotations", w -> w.getMetadata().setAnnotations(Map.of("note", "x")),
                        true, false, false, true, false, false, true),
                row("finalizers", w -> w.getMetadata().setFinalizers(List.of("example.com/f")),
                        true, false, false, false, true, false, true),
                row("deletion timestamp", w -> w.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z"),
                        true, false, false, false, false, true, true),
                row("empty labels where there were none", w -> w.getMetadata().setLabels(Map.of()),
                        false, false, false, false, false, false, true));
    }

    private static Arguments row(String update, Consumer<Widget> edit, boolean... passes) {
        assertThat(passes).hasSameSizeAs(PREDICATES);
        return Arguments.of(update, edit, passes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updates")
    void updatesPassThePredicatesWhoseFieldChanged(String update, Consumer<Widget> edit, boolean[] passes) {
        Widget before = widget("1");
        Widget after = widget("2");
        edit.accept(after);

        for (int i = 0; i < PREDICATES.size(); i++) {
            assertThat(predicate(PREDICATES.get(i)).update(before, after)).as(PREDICATES.get(i)).isEqualTo(passes[i]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updates")
    void resyncsPassEveryBuiltInButResourceVersionChanged(String update, Consumer<Widget> edit, boolean[] passes) {
        Widget before = widget("1");
        Widget replayed = widget("1");
        edit.accept(replayed); // the same resourceVersion: whatever differs, it is a resync

        for (String name : PREDICATES) {
            assertThat(predicate(name).update(before, replayed)).as(name)
                    .isEqualTo(!name.equals("resourceVersionChanged"));
        }
    }

    @Test
    void createsAndDeletesPassEveryBuiltIn() {
        for (String name : PREDICATES) {
            assertThat(predicate(name).create(widget("1"))).as(name).isTrue();
            assertThat(predicate(name).delete(widget("1"))).as(name).isTrue();
        }
    }

    @Test
    void predicatesComposeWithAndOrAndNegate() {
        Widget before = widget("1");
        Widget labelled = widget("2");
        labelled.getMetadata().setLabels(Map.of("tier", "web"));
        EventPredicate<Widget> onlyCanaries = new EventPredicate<>() {
            @Override
            public boolean create(Widget object) {
                return object.getMetadata().getName().startsWith("canary");
            }

            @Override
            public boolean update(Widget oldObject, Widget newObject) {
                return create(newObject);
            }
        };

        assertThat(Predicates.<Widget>labelsChanged().and(Predicates.generationChanged()).update(before, labelled))
                .isFalse();
        assertThat(Predicates.<Widget>labelsChanged().or(Predicates.generationChanged()).update(before, labelled))
                .isTrue();
        assertThat(Predicates.<Widget>labelsChanged().negate().update(before, labelled)).isFalse();
        assertThat(Predicates.<Widget>all().and(onlyCanaries).create(widget("1"))).isFalse();
        assertThat(Predicates.<Widget>all().and(onlyCanaries).create(Widget.named("ns", "canary-1"))).isTrue();
        assertThat(onlyCanaries.negate().delete(widget("1"))).as("negate turns every pass into a drop").isFalse();
    }

    private static Widget widget(String resourceVersion) {
        Widget widget = Widget.named("ns", "a");
        widget.getMetadata().setGeneration(1L);
        widget.getMetadata().setResourceVersion(resourceVersion);
        return widget;
    }
}
