package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ControllerConfigTest {

    @Test
    void defaultsMatchTheAnnotation() {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class).build();

        assertThat(config.workers()).isEqualTo(1);
        assertThat(config.namespaces()).isEmpty();
        assertThat(config.labelSelector()).isEmpty();
        assertThat(config.owns()).isEmpty();
        assertThat(config.generationAware()).isTrue();
        assertThat(config.resyncPeriod()).isEqualTo(Duration.ofHours(10));
        assertThat(config.reconcileTimeout()).isZero();
        assertThat(config.finalizer()).isEmpty();
    }

    @Test
    void eachInvalidSettingIsRejectedNamingTheSetting() {
        assertInvalid(b -> b.workers(0), "workers", "workers must be a whole number of 1 or more, was 0");
        assertInvalid(b -> b.labelSelector("app=web,"), "label-selector", "invalid label selector 'app=web,'");
        assertInvalid(b -> b.namespaces(List.of("Not_A_Namespace")), "namespaces",
                "'Not_A_Namespace' is not a valid namespace name");
        assertInvalid(b -> b.resyncPeriod(Duration.ofSeconds(-1)), "resync-period", "must be a duration of 0 or more");
        assertInvalid(b -> b.reconcileTimeout(Duration.ofSeconds(-1)), "reconcile-timeout", "must be a duration of 0 or more");
        assertInvalid(b -> b.finalizer("no-domain"), "finalizer", "'no-domain' is not a valid finalizer name");
        assertInvalid(b -> b.owns(List.of(HasMetadata.class)), "owns", "is not a concrete resource class");
        assertInvalid(b -> b.deletes(List.of(HasMetadata.class)), "deletes", "is not a concrete resource class");
    }

    @Test
    void namesMustBeDnsLabels() {
        assertThatThrownBy(() -> ControllerConfig.builder("My_Widget", Widget.class).build())
                .isInstanceOfSatisfying(KubeloopConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("name"));
    }

    @Test
    void aPrimaryTypeWithoutGroupVersionKindIsRejected() {
        assertThatThrownBy(() -> ControllerConfig.builder("generic", GenericKubernetesResource.class).build())
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo("type");
                    assertThat(e.description()).contains("is not a concrete resource class");
                });
    }

    @Test
    void aClusterScopedTypeCannotBeWatchedInNamespaces() {
        assertThatThrownBy(() -> ControllerConfig.builder("namespace", Namespace.class).namespaces(List.of("a"))
                .build())
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo("namespaces");
                    assertThat(e.description()).contains("Namespace is cluster-scoped");
                });
    }

    @Test
    void anOwnedTypeCachesWholeUnlessASelectorOrAppliedOnlyLimitsIt() {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class, Secret.class, Service.class))
                .owns(ConfigMap.class, "managed=true").ownsApplied(Secret.class).build();

        assertThat(config.owns()).containsExactly(ConfigMap.class, Secret.class, Service.class);
        assertThat(config.ownedLabelSelector(ConfigMap.class)).isEqualTo("managed=true");
        assertThat(config.ownedLabelSelector(Secret.class)).isEqualTo("kubeloop.dev/applied-by=widget");
        assertThat(config.ownedLabelSelector(Service.class)).isEmpty();
        assertThat(config.toBuilder().ownsApplied(Secret.class).build().ownedLabelSelector(Secret.class))
                .as("declared again, as ControllerManager.register does with a WatchConfigurer")
                .isEqualTo("kubeloop.dev/applied-by=widget");
    }

    @Test
    void anOwnedTypeTakesOneSelectorAndAValidOne() {
        assertInvalid(b -> b.owns(ConfigMap.class, "managed=true").ownsApplied(ConfigMap.class), "owns",
                "it owns ConfigMap with two label selectors, 'managed=true' and 'kubeloop.dev/applied-by=widget'");
        assertInvalid(b -> b.owns(ConfigMap.class, "managed=,"), "owns",
                "the label selector of owned type ConfigMap is invalid");
    }

    private static void assertInvalid(UnaryOperator<ControllerConfig.Builder<Widget>> change, String setting,
            String message) {
        assertThatThrownBy(() -> change.apply(ControllerConfig.builder("widget", Widget.class)).build())
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.setting()).isEqualTo(setting);
                    assertThat(e.controller()).isEqualTo("widget");
                    assertThat(e.description()).startsWith("Reconciler 'widget': ").contains(message);
                    assertThat(e.action()).isNotBlank();
                });
    }
}
