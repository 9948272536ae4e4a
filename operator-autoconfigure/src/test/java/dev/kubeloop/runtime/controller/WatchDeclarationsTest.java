package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.testing.Gadget;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Misdeclared watches fail the config's build, naming the reconciler, what is wrong and the fix. */
class WatchDeclarationsTest {

    private static final Watch<Secret> SECRETS = Watch.of(Secret.class).mapper((secret, caches) -> List.of());

    static Stream<Arguments> misdeclarations() {
        return Stream.of(
                row("a watch without a mapper", b -> b.watch(Watch.of(Secret.class)),
                        "the watch of secrets has no mapper", "Watch.of(Secret.class).mapper"),
                row("an index on a type it does not cache", b -> b.index(ConfigMap.class, "data", cm -> List.of()),
                        "declares the index 'data' on configmaps, which it does not cache", "watch ConfigMap"),
                row("a mapper through an index never declared", b -> b.watch(Watch.of(Secret.class)
                                .mapper(Mappers.byIndex(Widget.class, "spec.secretName"))),
                        "maps through the index 'spec.secretName', which is not declared on Widget",
                        "watches.index(Widget.class, \"spec.secretName\""),
                row("a mapper through an index of another type", b -> b.index(Secret.class, "x", s -> List.of())
                                .watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Secret.class, "x"))),
                        "maps through an index of Secret, which is not its primary type Widget",
                        "Mappers.byIndex(Widget.class"),
                row("namespaces for a cluster-scoped type", b -> b.watch(Watch.of(Namespace.class).inNamespaces("a")
                                .mapper((ns, caches) -> List.of())),
                        "names namespaces [a], but Namespace is cluster-scoped", "remove inNamespaces"),
                row("a cluster-scoped custom type with namespaces", b -> b.watch(Watch.of(Gadget.class)
                                .inNamespaces("a").mapper((gadget, caches) -> List.of())),
                        "Gadget is cluster-scoped", "remove inNamespaces"),
                row("an invalid namespace", b -> b.watch(SECRETS.inNamespaces("Not_A_Namespace")),
                        "names 'Not_A_Namespace', which is not a valid namespace name", "list existing namespaces"),
                row("the same type watched twice", b -> b.watch(SECRETS).watch(SECRETS.labelSelector("a=b")),
                        "watches secrets twice", "one mapper can return the keys of every relation"),
                row("an owned type watched metadata-only", b -> b.owns(ConfigMap.class)
                                .watch(Watch.of(ConfigMap.class).metadataOnly().mapper((cm, caches) -> List.of())),
                        "watches configmaps metadata-only, but also caches it whole", "drop metadataOnly()"),
                row("an invalid label selector", b -> b.watch(SECRETS.labelSelector("tier in (web")),
                        "the watch of secrets has an invalid label selector", "key in (a,b)"),
                row("an invalid field selector", b -> b.watch(SECRETS.fieldSelector("spec.nodeName")),
                        "the watch of secrets has an invalid field selector 'spec.nodeName'", "field!=value"),
                row("an index declared twice", b -> b.index(Widget.class, "x", w -> List.of())
                                .index(Widget.class, "x", w -> List.of()),
                        "declares the index 'x' on widgets.kubeloop.dev twice", "give each index of a type its own name"));
    }

    private static Arguments row(String what, UnaryOperator<ControllerConfig.Builder<Widget>> declare,
            String problem, String fix) {
        return Arguments.of(what, declare, problem, fix);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("misdeclarations")
    void aMisdeclarationFailsTheBuildNamingTheReconcilerAndTheFix(String what,
            UnaryOperator<ControllerConfig.Builder<Widget>> declare, String problem, String fix) {
        assertThatThrownBy(() -> declare.apply(ControllerConfig.builder("widget", Widget.class)).build())
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.controller()).isEqualTo("widget");
                    assertThat(e.setting()).isEqualTo("watches");
                    assertThat(e.description())
                            .startsWith("Reconciler 'widget': ").contains(problem);
                    assertThat(e.action()).containsIgnoringCase(fix);
                });
    }
}
