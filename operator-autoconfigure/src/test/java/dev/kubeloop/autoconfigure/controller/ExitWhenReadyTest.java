package dev.kubeloop.autoconfigure.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.testing.MockCluster;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@code kubeloop.exit-when-ready}, the training run of an AOT cache: the application runs up to
 * ready (the caches listed and watched, the workers started), then closes and exits with 0; unset,
 * it keeps running.
 */
class ExitWhenReadyTest {

    private final List<Integer> exitCodes = new CopyOnWriteArrayList<>();
    private final ControllerManager[] manager = new ControllerManager[1];
    private MockCluster cluster;

    @BeforeEach
    void startCluster() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void theApplicationClosesAndExitsWithZeroOnceReady() {
        ConfigurableApplicationContext context = run("kubeloop.exit-when-ready=true");

        assertThat(exitCodes).containsExactly(0);
        assertThat(context.isActive()).isFalse();
        assertThat(manager[0].state()).as("it ran, then stopped").isEqualTo(ControllerManager.State.STOPPED);
        assertThat(cluster.watches("/widgets")).as("the informers started before the exit").hasSize(1);
    }

    @Test
    void unsetTheApplicationKeepsRunning() {
        try (ConfigurableApplicationContext context = run()) {
            assertThat(exitCodes).isEmpty();
            assertThat(context.isActive()).isTrue();
            assertThat(manager[0].isRunning()).isTrue();
        }
    }

    private ConfigurableApplicationContext run(String... properties) {
        return new SpringApplicationBuilder(ExitingApplication.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .registerShutdownHook(false)
                .properties(properties)
                .initializers(context -> {
                    var beans = context.getBeanFactory();
                    beans.registerSingleton("kubernetesClient", cluster.client());
                    beans.registerSingleton("startedManager", new ControllerObserver() {
                        @Override
                        public void managerStarted(ControllerManager started) {
                            manager[0] = started;
                        }
                    });
                    // the properties as the application binds them; the JVM exit recorded instead of performed
                    KubeloopProperties bound = Binder.get(context.getEnvironment())
                            .bindOrCreate("kubeloop", KubeloopProperties.class);
                    beans.registerSingleton("kubeloopExitWhenReady", new ExitWhenReady(bound, exitCodes::add));
                })
                .run();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(KubeloopAutoConfiguration.class)
    @Import(ScanningApplication.class)
    static class ExitingApplication {
    }
}
