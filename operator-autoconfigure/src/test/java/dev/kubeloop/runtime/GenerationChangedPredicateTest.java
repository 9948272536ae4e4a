package dev.kubeloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.Widget;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GenerationChangedPredicateTest {

    private final GenerationChangedPredicate<Widget> predicate = new GenerationChangedPredicate<>();

    static Stream<Arguments> updates() {
        return Stream.of(
                change("status only", true, w -> w.setStatus(new Widget.Status())),
                change("resourceVersion only", true, w -> { }),
                change("generation (spec)", false, w -> w.getMetadata().setGeneration(2L)),
                change("labels", false, w -> w.getMetadata().setLabels(Map.of("tier", "web"))),
                change("annotations", false, w -> w.getMetadata().setAnnotations(Map.of("note", "x"))),
                change("finalizers", false, w -> w.getMetadata().setFinalizers(List.of("example.com/f"))),
                change("deletion timestamp", false, w -> w.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z")),
                change("empty labels where there were none", true, w -> w.getMetadata().setLabels(Map.of())));
    }

    private static Arguments change(String what, boolean skipped, Consumer<Widget> edit) {
        return Arguments.of(what, skipped, edit);
    }

    @ParameterizedTest(name = "{0}: skipped={1}")
    @MethodSource("updates")
    void skipsUpdatesThatChangeNothingAReconcileActsOn(String what, boolean skipped, Consumer<Widget> edit) {
        Widget before = widget("1");
        Widget after = widget("2");
        edit.accept(after);

        assertThat(predicate.update(before, after)).isEqualTo(!skipped);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updates")
    void resyncsAlwaysPass(String what, boolean skipped, Consumer<Widget> edit) {
        Widget same = widget("1");

        assertThat(predicate.update(same, same)).isTrue();
    }

    @org.junit.jupiter.api.Test
    void addsAndDeletesAlwaysPass() {
        assertThat(predicate.add(widget("1"), true)).isTrue();
        assertThat(predicate.delete(widget("1"))).isTrue();
    }

    private static Widget widget(String resourceVersion) {
        Widget widget = Widget.named("ns", "a");
        widget.getMetadata().setGeneration(1L);
        widget.getMetadata().setResourceVersion(resourceVersion);
        return widget;
    }
}
