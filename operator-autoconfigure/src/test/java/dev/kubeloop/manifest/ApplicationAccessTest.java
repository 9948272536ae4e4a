package dev.kubeloop.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.manifest.ApplicationAccess.Coordination;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.testing.Gadget;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Declarations in, rules out: one row per thing a reconciler can declare (docs/security.md's table). */
class ApplicationAccessTest {

    private static final String EVENTS = "{apiGroups: [\"\"], resources: [\"events\"], verbs: [\"create\", \"patch\"]}";

    static Stream<Arguments> rows() {
        return Stream.of(
                row("a primary alone: read it, record events", config -> config, false, Coordination.NONE,
                        List.of(EVENTS,
                                rule("kubeloop.dev", "widgets", "get", "list", "watch"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of()),
                row("a Cleaner patches its finalizer onto the primary", config -> config, true, Coordination.NONE,
                        List.of(EVENTS,
                                rule("kubeloop.dev", "widgets", "get", "list", "watch", "patch"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of()),
                row("owned kinds: applied (create, patch), cached; the owner's finalizers for blockOwnerDeletion",
                        config -> config.owns(ConfigMap.class).owns(Deployment.class), false, Coordination.NONE,
                        List.of(rule("", "configmaps", "get", "list", "watch", "create", "patch"), EVENTS,
                                rule("apps", "deployments", "get", "list", "watch", "create", "patch"),
                                rule("kubeloop.dev", "widgets", "get", "list", "watch"),
                                rule("kubeloop.dev", "widgets/finalizers", "update"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of()),
                row("delete only on what @Reconciler(deletes) names", config -> config.owns(ConfigMap.class)
                        .owns(Service.class).deletes(List.of(ConfigMap.class)), false, Coordination.NONE,
                        List.of(rule("", "configmaps", "get", "list", "watch", "create", "patch", "delete"), EVENTS,
                                rule("", "services", "get", "list", "watch", "create", "patch"),
                                rule("kubeloop.dev", "widgets", "get", "list", "watch"),
                                rule("kubeloop.dev", "widgets/finalizers", "update"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of()),
                row("watched kinds, metadata-only or not: list and watch, never get", config -> config
                        .watch(Watch.of(Secret.class).metadataOnly().mapper((secret, caches) -> List.of()))
                        .watch(Watch.of(Gadget.class).mapper((gadget, caches) -> List.of())), false,
                        Coordination.NONE,
                        List.of(EVENTS, rule("", "secrets", "list", "watch"),
                                rule("kubeloop.dev", "gadgets", "list", "watch"),
                                rule("kubeloop.dev", "widgets", "get", "list", "watch"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of()),
                row("leader election: its Lease in the release namespace", config -> config, false,
                        Coordination.LEADER_ELECTION,
                        List.of(EVENTS, rule("kubeloop.dev", "widgets", "get", "list", "watch"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of(rule("coordination.k8s.io", "leases", "get", "list", "watch", "create", "update",
                                "patch"))),
                row("sharding: the ring's Leases with delete, and the slot label's patch of primaries",
                        config -> config, false, Coordination.SHARDING,
                        List.of(EVENTS, rule("kubeloop.dev", "widgets", "get", "list", "watch", "patch"),
                                rule("kubeloop.dev", "widgets/status", "patch")),
                        List.of(rule("coordination.k8s.io", "leases", "get", "list", "watch", "create", "update",
                                "patch", "delete"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void derivesTheRulesTheRuntimeUses(String row, UnaryOperator<ControllerConfig.Builder<Widget>> declare,
            boolean cleaner, Coordination coordination, List<String> workload, List<String> releaseNamespace) {
        ControllerConfig<Widget> config = declare.apply(ControllerConfig.builder("widget", Widget.class)).build();
        ApplicationAccess access = ApplicationAccess.derive(List.of(new ReconcilerAccess(config, cleaner)), coordination);
        assertThat(access.workload()).extracting(AccessRule::yaml).containsExactlyElementsOf(workload);
        assertThat(access.releaseNamespace()).extracting(AccessRule::yaml).containsExactlyElementsOf(releaseNamespace);
    }

    @org.junit.jupiter.api.Test
    void twoReconcilersMergeIntoOneRulePerResourceAndAnOptionAddsOnlyWhatIsNew() {
        ControllerConfig<Widget> widgets = ControllerConfig.builder("widget", Widget.class).owns(ConfigMap.class).build();
        ControllerConfig<Gadget> gadgets = ControllerConfig.builder("gadget", Gadget.class).owns(ConfigMap.class)
                .deletes(List.of(ConfigMap.class)).build();
        ApplicationAccess base = ApplicationAccess.derive(List.of(new ReconcilerAccess(widgets, false),
                new ReconcilerAccess(gadgets, true)), Coordination.NONE);
        assertThat(base.workload()).filteredOn(rule -> rule.resource().equals("configmaps")).singleElement()
                .extracting(AccessRule::verbs).isEqualTo(List.of("get", "list", "watch", "create", "patch", "delete"));
        assertThat(base.workload()).extracting(AccessRule::resource).as("sorted by group, then resource")
                .containsExactly("configmaps", "events", "gadgets", "gadgets/finalizers", "widgets",
                        "widgets/finalizers", "widgets/status");

        ApplicationAccess sharded = ApplicationAccess.derive(List.of(new ReconcilerAccess(widgets, false),
                new ReconcilerAccess(gadgets, true)), Coordination.SHARDING).beyond(base);
        assertThat(sharded.workload()).extracting(AccessRule::yaml).as("gadgets had patch already (finalizer)")
                .containsExactly(rule("kubeloop.dev", "widgets", "patch"));
        assertThat(sharded.releaseNamespace()).singleElement().extracting(AccessRule::resource).isEqualTo("leases");
        assertThat(base.beyond(base).isEmpty()).isTrue();
    }

    private static Arguments row(String name, UnaryOperator<ControllerConfig.Builder<Widget>> declare, boolean cleaner,
            Coordination coordination, List<String> workload, List<String> releaseNamespace) {
        return Arguments.of(name, declare, cleaner, coordination, workload, releaseNamespace);
    }

    private static String rule(String group, String resource, String... verbs) {
        return new AccessRule(group, resource, List.of(verbs)).yaml();
    }
}
