package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.leader.LeaderElectionAutoConfiguration;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Every configuration mistake fails startup with a description that names the bean, property or
 * resource at fault, and an action, as the failure analyzer prints them.
 */
class InvalidConfigurationTest {

    private MockCluster cluster = MockCluster.withWidgetCrd();

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class))
                .withBean(KubernetesClient.class, cluster::client);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void nonPositiveWorkersInAPropertyFailNamingTheProperty() {
        runner().withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.reconcilers.widget.workers=0")
                .run(failsWith(analysis -> {
                    assertThat(analysis.getDescription()).contains(
                            "Reconciler 'widget': workers must be a whole number of 1 or more, was 0.",
                            "property kubeloop.reconcilers.widget.workers", "bean 'scannedWidgetReconciler'");
                    assertThat(analysis.getAction()).contains("Set workers to a whole number of 1 or more.",
                            "kubeloop.reconcilers.widget.workers");
                }));
    }

    @Test
    void nonPositiveWorkersInTheAnnotationFailNamingTheAnnotation() {
        runner().withBean(NoWorkers.class).run(failsWith(analysis -> assertThat(analysis.getDescription())
                .contains("workers must be a whole number of 1 or more, was 0", "@Reconciler(workers) on " + NoWorkers.class.getName(),
                        "(reconciler bean 'invalidConfigurationTest.NoWorkers')")));
    }

    @Test
    void anUnparsableLabelSelectorFailsNamingThePropertyAndThePosition() {
        runner().withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.reconcilers.widget.label-selector=tier in (web")
                .run(failsWith(analysis -> {
                    assertThat(analysis.getDescription()).contains("invalid label selector 'tier in (web' at position",
                            "property kubeloop.reconcilers.widget.label-selector");
                    assertThat(analysis.getAction()).contains("key in (a,b)");
                }));
    }

    @Test
    void twoReconcilersWithOneNameFailNamingBothBeans() {
        runner().withBean("first", FirstWidgetReconciler.class).withBean("second", SecondWidgetReconciler.class)
                .run(failsWith(analysis -> {
                    assertThat(analysis.getDescription()).contains("Reconciler beans 'first'", "and 'second'",
                            "are both named 'widget'");
                    assertThat(analysis.getAction()).contains("@Reconciler(name = ...)");
                }));
    }

    @Test
    void aReconcilerWhoseTypeIsNotAResourceFailsNamingTheBean() {
        runner().withBean("raw", RawReconciler.class).run(failsWith(analysis -> {
            assertThat(analysis.getDescription()).contains("Reconciler bean 'raw'", RawReconciler.class.getName(),
                    "does not say which resource it reconciles");
            assertThat(analysis.getAction()).contains("implements ResourceReconciler<YourResource>");
        }));
    }

    @Test
    void anAbstractResourceTypeFailsNamingTheBean() {
        runner().withBean("abstract", AbstractTypeReconciler.class).run(failsWith(analysis ->
                assertThat(analysis.getDescription()).contains("the primary type " + HasMetadata.class.getName(),
                        "is not a concrete resource class", "type argument of ResourceReconciler on",
                        "reconciler bean 'abstract'")));
    }

    @Test
    void aMissingCrdFailsStartupNamingIt() {
        cluster.close();
        cluster = MockCluster.empty();
        runner().withUserConfiguration(ScanningApplication.class).run(failsWith(analysis -> {
            assertThat(analysis.getDescription()).contains("does not serve Widget (kubeloop.dev/v1)",
                    "CustomResourceDefinition widgets.kubeloop.dev is not installed");
            assertThat(analysis.getAction()).contains("Install the CustomResourceDefinition widgets.kubeloop.dev");
        }));
    }

    @Test
    void propertiesForAReconcilerThatDoesNotExistFail() {
        runner().withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.reconcilers.wigdet.workers=2")
                .run(failsWith(analysis -> assertThat(analysis.getDescription()).isEqualTo(
                        "Property kubeloop.reconcilers.wigdet does not match any reconciler "
                                + "(reconcilers: [widget]).")));
    }

    @Test
    void anAnnotationDurationThatDoesNotParseFailsNamingTheAttribute() {
        runner().withBean(BadResync.class).run(failsWith(analysis -> {
            assertThat(analysis.getDescription()).contains("'often' is not a duration", "@Reconciler(resyncPeriod)");
            assertThat(analysis.getAction()).contains("30s");
        }));
    }

    @Test
    void invalidRateLimiterPropertiesFailNamingTheProperties() {
        runner().withPropertyValues("kubeloop.rate-limiter.qps=0").run(failsWith(analysis -> {
            assertThat(analysis.getDescription()).contains("Property kubeloop.rate-limiter.qps has an invalid value "
                    + "'0': it must be a positive number");
            assertThat(analysis.getAction()).contains("Set kubeloop.rate-limiter.qps to");
        }));
    }

    @Test
    void aNegativeNumberOfLastErrorsFailsNamingTheProperty() {
        runner().withPropertyValues("kubeloop.introspection.last-errors=-1").run(failsWith(analysis -> {
            assertThat(analysis.getDescription())
                    .isEqualTo("Property kubeloop.introspection.last-errors has an invalid value '-1': it must be a whole "
                            + "number of 0 or more.");
            assertThat(analysis.getAction()).contains("0 or more");
        }));
    }

    @Test
    void aNegativeListPageSizeFailsNamingTheProperty() {
        runner().withPropertyValues("kubeloop.informer-list-page-size=-1").run(failsWith(analysis -> {
            assertThat(analysis.getDescription())
                    .isEqualTo("Property kubeloop.informer-list-page-size has an invalid value '-1': it must be a whole "
                            + "number of 0 or more (0 lists in one response; client-go pages by 500).");
            assertThat(analysis.getAction()).contains("500");
        }));
    }

    @Test
    void leaderElectionTimingsThatCannotWorkFailNamingTheProperties() {
        ApplicationContextRunner leaderElection = runner().withConfiguration(
                AutoConfigurations.of(LeaderElectionAutoConfiguration.class))
                .withPropertyValues("kubeloop.leader-election.enabled=true", "spring.application.name=op");
        leaderElection.withPropertyValues("kubeloop.leader-election.lease-duration=10s")
                .run(failsWith(analysis -> {
                    assertThat(analysis.getDescription()).isEqualTo("Invalid leader election timings: "
                            + "kubeloop.leader-election.lease-duration (10s) must be longer than "
                            + "kubeloop.leader-election.renew-deadline (10s): a holder that cannot renew must stop "
                            + "acting before another replica may take over.");
                    assertThat(analysis.getAction()).contains("lease-duration > renew-deadline >= 2 × retry-period");
                }));
        leaderElection.withPropertyValues("kubeloop.leader-election.retry-period=6s")
                .run(failsWith(analysis -> assertThat(analysis.getDescription()).contains(
                        "kubeloop.leader-election.renew-deadline (10s) must be at least 2 × "
                                + "kubeloop.leader-election.retry-period (6s)")));
        leaderElection.withPropertyValues("kubeloop.leader-election.lease-duration=15500ms")
                .run(failsWith(analysis -> assertThat(analysis.getDescription()).contains(
                        "kubeloop.leader-election.lease-duration must be a whole number of seconds")));
        leaderElection.withPropertyValues("kubeloop.leader-election.retry-period=0")
                .run(failsWith(analysis -> assertThat(analysis.getDescription()).contains(
                        "kubeloop.leader-election.retry-period must be a positive duration, was 0s")));
    }

    @Test
    void leaderElectionWithoutALeaseNameFails() {
        runner().withConfiguration(AutoConfigurations.of(LeaderElectionAutoConfiguration.class))
                .withPropertyValues("kubeloop.leader-election.enabled=true")
                .run(failsWith(analysis -> {
                    assertThat(analysis.getDescription()).isEqualTo("Leader election is on, but the Lease has no "
                            + "name: neither kubeloop.leader-election.lease-name nor spring.application.name is set.");
                    assertThat(analysis.getAction()).contains("Set spring.application.name",
                            "kubeloop.leader-election.enabled=false");
                }));
        runner().withConfiguration(AutoConfigurations.of(LeaderElectionAutoConfiguration.class))
                .withPropertyValues("kubeloop.leader-election.enabled=true", "kubeloop.leader-election.lease-name=Op_1")
                .run(failsWith(analysis -> assertThat(analysis.getDescription()).startsWith(
                        "Property kubeloop.leader-election.lease-name 'Op_1' is not a valid Lease name")));
    }

    @Test
    void theFailureAnalyzerIsRegistered() {
        // Boot's own analyzers need constructor arguments; skip those, we only look for ours
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class, null,
                (factoryType, implementationName, failure) -> { }))
                .anyMatch(KubeloopFailureAnalyzer.class::isInstance);
    }

    private static ContextConsumer<AssertableApplicationContext> failsWith(Consumer<FailureAnalysis> check) {
        return context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(Throwable.class);
            FailureAnalysis analysis = new KubeloopFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).as("a KubeloopConfigurationException in %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getCause()).isInstanceOf(KubeloopConfigurationException.class);
            check.accept(analysis);
        };
    }

    @Reconciler(workers = 0)
    static class NoWorkers extends RecordingReconciler {
    }

    @Reconciler(resyncPeriod = "often")
    static class BadResync extends RecordingReconciler {
    }

    static class FirstWidgetReconciler extends RecordingReconciler {
    }

    static class SecondWidgetReconciler extends RecordingReconciler {
    }

    @SuppressWarnings("rawtypes")
    static class RawReconciler implements ResourceReconciler {
        @Override
        public Result reconcile(HasMetadata resource, ReconcileContext context) {
            return Result.done();
        }
    }

    static class AbstractTypeReconciler implements ResourceReconciler<HasMetadata> {
        @Override
        public Result reconcile(HasMetadata resource, ReconcileContext<HasMetadata> context) {
            return Result.done();
        }
    }
}
