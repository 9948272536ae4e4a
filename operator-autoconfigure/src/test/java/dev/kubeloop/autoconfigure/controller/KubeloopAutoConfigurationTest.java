package dev.kubeloop.autoconfigure.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ReconcileTriggers;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.api.watch.Watches;
import dev.kubeloop.autoconfigure.scan.ScannedWidgetReconciler;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The wiring: which beans exist, where reconcilers come from, and how properties override annotations. */
class KubeloopAutoConfigurationTest {

    private MockCluster cluster;
    private ApplicationContextRunner runner;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class))
                .withBean(KubernetesClient.class, cluster::client);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void reconcilerClassesInTheApplicationsPackagesBecomeRunningControllers() {
        runner.withUserConfiguration(ScanningApplication.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(ScannedWidgetReconciler.class);
            ControllerManager manager = context.getBean(ControllerManager.class);
            assertThat(manager.isRunning()).isTrue();
            Controller<?> controller = manager.controller("widget").orElseThrow();
            assertThat(controller.config().primaryType()).isEqualTo(Widget.class);
            assertThat(controller.config().workers()).isEqualTo(2);
            assertThat(controller.config().owns()).containsExactly(ConfigMap.class);
            assertThat(controller.config().resyncPeriod()).isEqualTo(Duration.ofHours(1));

            cluster.client().resource(Widget.named("ns", "a")).create();

            ScannedWidgetReconciler reconciler = context.getBean(ScannedWidgetReconciler.class);
            eventually().until(() -> reconciler.count("ns/a") == 1);
        });
    }

    @Test
    void aResourceReconcilerBeanWithoutTheAnnotationIsAControllerWithTheDefaults() {
        runner.withUserConfiguration(LambdaReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            ControllerConfig<?> config = context.getBean(ControllerManager.class).controller("widget").orElseThrow()
                    .config();
            assertThat(config.primaryType()).isEqualTo(Widget.class);
            assertThat(config.workers()).isEqualTo(1);
            assertThat(config.resyncPeriod()).isEqualTo(Settings.RESYNC_PERIOD.defaultValue()).isEqualTo(Duration.ofHours(10));
            assertThat(config.setting(Settings.MAX_ATTEMPTS)).isEqualTo(Settings.MAX_ATTEMPTS.defaultValue()).isZero();
        });
    }

    @Test
    void propertiesOverrideTheAnnotation() {
        runner.withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.reconcilers.widget.workers=3",
                        "kubeloop.reconcilers.widget.namespaces=a,b",
                        "kubeloop.reconcilers.widget.label-selector=tier=web",
                        "kubeloop.reconcilers.widget.generation-aware=false",
                        "kubeloop.reconcilers.widget.resync-period=0",
                        "kubeloop.reconcilers.widget.reconcile-timeout=5s",
                        "kubeloop.reconcilers.widget.field-manager=widgets.example.com",
                        "kubeloop.reconcilers.widget.max-attempts=4")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Controller<?> controller = context.getBean(ControllerManager.class).controller("widget")
                            .orElseThrow();
                    ControllerConfig<?> config = controller.config();
                    assertThat(config.workers()).isEqualTo(3);
                    assertThat(config.namespaces()).containsExactly("a", "b");
                    assertThat(config.labelSelector()).isEqualTo("tier=web");
                    assertThat(config.generationAware()).isFalse();
                    assertThat(config.resyncPeriod()).isZero();
                    assertThat(config.reconcileTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(config.fieldManager()).isEqualTo("widgets.example.com");
                    assertThat(config.setting(Settings.MAX_ATTEMPTS)).as("the generic route: property, else "
                            + "annotation").isEqualTo(config.maxAttempts()).isEqualTo(4);
                    assertThat(config.owns()).as("not overridable").containsExactly(ConfigMap.class);
                });
    }

    @Test
    void aCleanerBeanGetsTheDefaultFinalizer() {
        runner.withUserConfiguration(CleanerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ControllerManager.class).controller("widget").orElseThrow().finalizer())
                    .contains("widget.kubeloop.dev/finalizer");
        });
    }

    @Test
    void aPropertyNamesTheFinalizerOfACleaner() {
        runner.withUserConfiguration(CleanerConfiguration.class)
                .withPropertyValues("kubeloop.reconcilers.widget.finalizer=example.com/widget").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ControllerManager.class).controller("widget").orElseThrow()
                            .finalizer()).contains("example.com/widget");
                });
    }

    @Test
    void aFinalizerPropertyOnAReconcilerThatIsNoCleanerFailsStartupNamingTheProperty() {
        runner.withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.reconcilers.widget.finalizer=example.com/widget").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("does not implement "
                            + Cleaner.class.getName());
                });
    }

    @Test
    void globalNamespacesApplyWhereNeitherAnnotationNorReconcilerPropertyNamesAny() {
        runner.withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.namespaces=team-a,team-b")
                .run(context -> assertThat(context.getBean(ControllerManager.class).controller("widget").orElseThrow()
                        .config().namespaces()).containsExactly("team-a", "team-b"));
    }

    @Test
    void aReconcilersOwnNamespacesPropertyWinsOverTheGlobalOne() {
        runner.withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.namespaces=team-a", "kubeloop.reconcilers.widget.namespaces=mine")
                .run(context -> assertThat(context.getBean(ControllerManager.class).controller("widget").orElseThrow()
                        .config().namespaces()).containsExactly("mine"));
    }

    @Test
    void aReconcilerThatIsAlsoDeclaredAsABeanIsRegisteredOnce() {
        runner.withUserConfiguration(ScanningApplication.class, ExplicitReconcilerConfiguration.class)
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ScannedWidgetReconciler.class)
                        .hasBean("explicitReconciler"));
    }

    @Test
    void kubeloopEnabledFalseTurnsEverythingOff() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class))
                .withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.enabled=false")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(ControllerManager.class)
                        .doesNotHaveBean(KubernetesClient.class)
                        .doesNotHaveBean(ScannedWidgetReconciler.class)
                        .doesNotHaveBean(KubeloopProperties.class));
    }

    @Test
    void aKubernetesClientIsCreatedOnlyWhenTheApplicationDefinesNone() {
        runner.run(context -> assertThat(context.getBean(KubernetesClient.class)).isSameAs(cluster.client()));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class))
                .withPropertyValues("kubeloop.cache-sync-timeout=1s")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(KubernetesClient.class));
    }

    @Test
    void theDefaultClientIgnoresFieldsTheModelDoesNotKnowAsClientGoDoes() {
        String newerWidget = "{\"apiVersion\":\"kubeloop.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\"},"
                + "\"spec\":{\"color\":\"red\",\"addedLater\":{\"x\":1}},\"status\":{\"futureField\":true},"
                + "\"alsoNew\":[1]}";
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class))
                .withPropertyValues("kubeloop.cache-sync-timeout=1s")
                .run(context -> {
                    Widget read = context.getBean(KubernetesClient.class).getKubernetesSerialization()
                            .unmarshal(newerWidget, Widget.class);
                    assertThat(read.getSpec().getColor()).isEqualTo("red");
                });
    }

    @Test
    void theManagerStopsWithTheContext() {
        ControllerManager[] manager = new ControllerManager[1];
        runner.withUserConfiguration(ScanningApplication.class)
                .run(context -> manager[0] = context.getBean(ControllerManager.class));

        assertThat(manager[0].isRunning()).isFalse();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("kubeloop-widget-"));
    }

    @Test
    void theCachesSyncWhileTheRestOfTheContextIsStillStarting() {
        cluster.client().resource(Widget.named("ns", "a")).create();
        runner.withUserConfiguration(ScanningApplication.class, EarlierLifecycleConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            EarlierLifecycle earlier = context.getBean(EarlierLifecycle.class);
            assertThat(earlier.sawSyncedCaches).as("synced before Kubeloop's lifecycle started").isTrue();
            assertThat(earlier.sawWorkersRunning).as("no reconcile before it").isFalse();
            ScannedWidgetReconciler reconciler = context.getBean(ScannedWidgetReconciler.class);
            eventually().until(() -> reconciler.count("ns/a") == 1);
        });
    }

    @Test
    void aContextThatFailsAfterTheManagerWasCreatedStopsTheCachesItStarted() {
        FailingAfterTheManager.seen = null;
        runner.withUserConfiguration(ScanningApplication.class, FailingAfterTheManager.class)
                .run(context -> assertThat(context).hasFailed());

        ControllerManager manager = FailingAfterTheManager.seen;
        assertThat(manager).isNotNull();
        assertThat(manager.state()).isEqualTo(ControllerManager.State.STOPPED);
        assertThat(manager.informers()).allSatisfy(informer -> assertThat(informer.watching()).isFalse());
    }

    /** Starts just before Kubeloop's lifecycle and waits for the caches there, as a web server would take its time. */
    @Configuration(proxyBeanMethods = false)
    static class EarlierLifecycleConfiguration {
        @Bean
        EarlierLifecycle earlierLifecycle(ControllerManager manager) {
            return new EarlierLifecycle(manager);
        }
    }

    static final class EarlierLifecycle implements SmartLifecycle {
        private final ControllerManager manager;
        private volatile boolean running;
        volatile boolean sawSyncedCaches;
        volatile boolean sawWorkersRunning;

        EarlierLifecycle(ControllerManager manager) {
            this.manager = manager;
        }

        @Override
        public void start() {
            eventually().until(() -> manager.informers().stream().allMatch(InformerStatus::synced));
            sawSyncedCaches = true;
            sawWorkersRunning = manager.workersRunning() || manager.isRunning();
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return KubeloopLifecycle.PHASE - 1;
        }
    }

    /** A bean created after the manager whose creation fails once the manager's caches are watching. */
    @Configuration(proxyBeanMethods = false)
    static class FailingAfterTheManager {
        static volatile ControllerManager seen;

        @Bean
        Object failsAfterTheManager(ControllerManager manager) {
            seen = manager;
            eventually().until(() -> manager.informers().stream().allMatch(InformerStatus::watching));
            throw new IllegalStateException("a later bean fails");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LambdaReconcilerConfiguration {
        @Bean
        ResourceReconciler<Widget> lambdaReconciler() {
            return (widget, context) -> Result.done();
        }
    }

    @Test
    void aReconcilerBeanThatIsAWatchConfigurerDeclaresItsWatchesAndTriggersAreInjectable() {
        runner.withUserConfiguration(WatchingConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            Controller<?> controller = context.getBean(ControllerManager.class).controller("widget").orElseThrow();
            assertThat(controller.config().declarations().watches()).singleElement()
                    .satisfies(watch -> assertThat(watch.type()).isEqualTo(Secret.class));
            assertThat(controller.config().declarations().indexesOf(Widget.class)).containsKey("spec.secretName");
            assertThat(context.getBean(ReconcileTriggers.class).of(Widget.class).reconciler()).isEqualTo("widget");
        });
    }

    @Test
    void aMisdeclaredWatchFailsStartupNamingTheReconcilerItsClassAndTheFix() {
        runner.withUserConfiguration(MisdeclaredWatchConfiguration.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable outermost = context.getStartupFailure();
            while (!(outermost instanceof KubeloopConfigurationException) && outermost.getCause() != null) {
                outermost = outermost.getCause();
            }
            assertThat(outermost).isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                assertThat(e.description()).contains("Reconciler 'widget'", "the index 'spec.secretName', "
                        + "which is not declared on Widget", "configureWatches of "
                        + MisdeclaringReconciler.class.getName());
                assertThat(e.action()).contains("watches.index(Widget.class, \"spec.secretName\"");
            });
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class WatchingConfiguration {
        @Bean
        WatchingReconciler watchingReconciler() {
            return new WatchingReconciler();
        }
    }

    static class WatchingReconciler extends RecordingReconciler implements WatchConfigurer<Widget> {
        @Override
        public void configureWatches(Watches<Widget> watches) {
            watches.index(Widget.class, "spec.secretName", widget -> List.of())
                    .watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Widget.class, "spec.secretName")));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MisdeclaredWatchConfiguration {
        @Bean
        MisdeclaringReconciler misdeclaringReconciler() {
            return new MisdeclaringReconciler();
        }
    }

    static class MisdeclaringReconciler extends RecordingReconciler implements WatchConfigurer<Widget> {
        @Override
        public void configureWatches(Watches<Widget> watches) {
            watches.watch(Watch.of(Secret.class).mapper(Mappers.byIndex(Widget.class, "spec.secretName")));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CleanerConfiguration {
        @Bean
        WidgetCleaner widgetCleaner() {
            return new WidgetCleaner();
        }
    }

    static class WidgetCleaner extends RecordingReconciler implements Cleaner<Widget> {
        @Override
        public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
            return Result.done();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ExplicitReconcilerConfiguration {
        @Bean
        ScannedWidgetReconciler explicitReconciler() {
            return new ScannedWidgetReconciler();
        }
    }
}
