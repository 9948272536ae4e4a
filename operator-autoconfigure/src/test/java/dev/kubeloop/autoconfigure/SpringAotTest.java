package dev.kubeloop.autoconfigure;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.leader.LeaderElectionAutoConfiguration;
import dev.kubeloop.autoconfigure.sharding.ShardingAutoConfiguration;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.javapoet.ClassName;

/**
 * An application processed ahead of time (Spring AOT, as {@code spring-boot:process-aot} does at
 * build time) and then started from the generated code, as {@code -Dspring.aot.enabled=true} starts
 * it: it reconciles; and where one of Kubeloop's switches (leader election, sharding, ...) decides
 * otherwise at start-up than it did at build time, start-up fails naming the switch instead of running
 * with the beans chosen for the other setting.
 */
@CompileWithForkedClassLoader
class SpringAotTest {

    private MockCluster cluster;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void anApplicationStartedFromItsGeneratedCodeReconciles() {
        Map<String, Object> properties = Map.of("kubeloop.shutdown-timeout", "5s");
        processAndStart(properties, properties, start -> {
            start.initialize();
            GenericApplicationContext context = start.context();
            context.refresh();
            try {
                assertThat(context.getBean(ControllerManager.class).controller("widget")).isPresent();
                RecordingReconciler reconciler = context.getBean(RecordingReconciler.class);
                cluster.client().resources(Widget.class).inNamespace("ns").resource(widget("aot-1")).create();
                eventually().until(() -> reconciler.count("ns/aot-1") >= 1);
            } finally {
                context.close();
            }
        });
    }

    @Test
    void aSwitchSetOtherwiseThanAtBuildTimeFailsStartUpNamingIt() {
        processAndStart(Map.of(), Map.of("kubeloop.sharding.enabled", "true"),
                start -> assertThatThrownBy(start::initialize)
                        .isInstanceOf(KubeloopConfigurationException.class)
                        .hasMessageContaining("processed ahead of time (Spring AOT)")
                        .hasMessageContaining("here kubeloop.sharding.enabled is true, at build time "
                                + "kubeloop.sharding.enabled is not true"));
    }

    @Test
    void leaderElectionLeftToTheCloudPlatformIsCheckedAgainstTheOneItStartsOn() {
        // built off Kubernetes with the property unset: no leader election; started on Kubernetes: it would elect
        processAndStart(Map.of(), Map.of("spring.main.cloud-platform", "kubernetes"),
                start -> assertThatThrownBy(start::initialize)
                        .isInstanceOf(KubeloopConfigurationException.class)
                        .hasMessageContaining("here kubeloop.leader-election.enabled is not set and the cloud "
                                + "platform is Kubernetes, at build time kubeloop.leader-election.enabled is not set "
                                + "and the cloud platform is not Kubernetes"));
    }

    @Test
    void theSameSettingsWrittenDifferentlyStart() {
        // unset and its default, "on" and "true": the same decisions
        processAndStart(Map.of("kubeloop.leader-election.enabled", "on"),
                Map.of("kubeloop.leader-election.enabled", "true", "kubeloop.sharding.enabled", "false",
                        "kubeloop.enabled", "TRUE"),
                start -> {
                    start.initialize();
                    assertThat(start.context().getBeanFactory().containsBeanDefinition("kubeloopControllerManager")).isTrue();
                });
    }

    @Test
    void anInvalidValueAtStartUpIsNamedAsWithoutAot() {
        processAndStart(Map.of(), Map.of("kubeloop.sharding.enabled", "sometimes"),
                start -> assertThatThrownBy(start::initialize)
                        .isInstanceOf(KubeloopConfigurationException.class)
                        .hasMessageContaining("kubeloop.sharding.enabled has an invalid value 'sometimes'"));
    }

    @Test
    void everySwitchOfKubeloopCanBeDecidedAgainAtStartUp() throws Exception {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AssignableTypeFilter(SwitchCondition.class));
        List<String> switches = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.kubeloop")) {
            Class<?> type = Class.forName(candidate.getBeanClassName());
            String file = String.valueOf(candidate.getResourceDescription());
            // the main code's switches, not the test conditions of OnBooleanPropertyConditionTest
            if (!Modifier.isAbstract(type.getModifiers()) && !file.contains("test-classes")) {
                switches.add(type.getName());
            }
        }
        // the six switches of today; a new one is found here, and must be creatable by the check too
        assertThat(switches).hasSizeGreaterThanOrEqualTo(6);
        StandardEnvironment environment = new StandardEnvironment();
        for (String name : switches) {
            boolean on = SwitchDecisions.instantiate(name).decide(environment).isMatch();
            SwitchDecisions.verify(environment, name, String.valueOf(on), "as here");
            assertThatThrownBy(() -> SwitchDecisions.verify(environment, name, String.valueOf(!on), "otherwise"))
                    .as(name).isInstanceOf(KubeloopConfigurationException.class)
                    .hasMessageContaining("at build time otherwise");
        }
    }

    /**
     * Processes {@link AotApp} with the build's properties, compiles the generated code and hands the
     * test a context prepared with the start's properties and the cluster's client; the test applies
     * the generated initializer ({@link #initialize}) and refreshes if it wants to.
     */
    private void processAndStart(Map<String, Object> atBuild, Map<String, Object> atStart,
            Consumer<Start> test) {
        GenericApplicationContext build = prepared(atBuild);
        AnnotationConfigUtils.registerAnnotationConfigProcessors(build);
        build.registerBean(AotApp.class);
        TestGenerationContext generated = new TestGenerationContext(AotApp.class);
        ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(build, generated);
        generated.writeGeneratedContent();
        TestCompiler.forSystem().with(generated).compile(compiled -> {
            GenericApplicationContext start = prepared(atStart);
            start.setClassLoader(compiled.getClassLoader());
            test.accept(new Start(start, compiled.getInstance(ApplicationContextInitializer.class,
                    initializer.reflectionName())));
        });
    }

    /** A context to start from generated code, and the generated initializer, not applied yet. */
    private record Start(GenericApplicationContext context, ApplicationContextInitializer<?> initializer) {

        /** Applies the generated initializer, as Spring Boot does before the refresh in AOT mode. */
        @SuppressWarnings("unchecked")
        void initialize() {
            ((ApplicationContextInitializer<GenericApplicationContext>) initializer).initialize(context);
        }
    }

    /** A context as Spring Boot prepares one: its environment, and the client registered before the refresh. */
    private GenericApplicationContext prepared(Map<String, Object> properties) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        context.getBeanFactory().registerSingleton("kubernetesClient", cluster.client());
        return context;
    }

    private static Widget widget(String name) {
        Widget widget = new Widget();
        widget.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
        return widget;
    }

    /** An application with Kubeloop's switches and one reconciler (the build-time context adds the config processors). */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({KubeloopAutoConfiguration.class, LeaderElectionAutoConfiguration.class,
            ShardingAutoConfiguration.class})
    static class AotApp {

        @Bean
        RecordingReconciler recordingReconciler() {
            return new RecordingReconciler();
        }
    }
}
