package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.testing.FencedWidgetReconciler;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.LeasePartition;
import dev.kubeloop.testing.MockCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * One replica of a Widget operator in a leader election test: a real Spring Boot application
 * (SpringApplication, so availability events and SpringApplication.exit behave as in production)
 * with its own client to the shared mock API server, a {@link LeasePartition} on that client, a
 * {@link FencedWidgetReconciler}, and the default exit-on-lost handler with the JVM exit recorded
 * instead of performed.
 */
final class Replica implements AutoCloseable {

    static final String APPLICATION_NAME = "widget-operator";
    static final String LEASE_NAME = APPLICATION_NAME + "-leader";
    /** The mock client's namespace, which is the Lease's by default outside a pod. */
    static final String LEASE_NAMESPACE = "test";

    final String name;
    final LeasePartition partition = new LeasePartition();
    final List<Integer> exitCodes = new CopyOnWriteArrayList<>();
    private final KubernetesClient client;
    private final ConfigurableApplicationContext context;
    private final ApplicationAvailability availability;
    private final ControllerManager manager;

    private Replica(MockCluster cluster, String name, FencingRegister register, Duration work, List<String> properties) {
        this.name = name;
        Consumer<KubernetesClientBuilder> withPartition = builder -> builder.withHttpClientBuilderConsumer(
                http -> http.addOrReplaceInterceptor("partition", partition));
        this.client = cluster.newClient(withPartition);
        List<String> all = new ArrayList<>(List.of("spring.application.name=" + APPLICATION_NAME,
                "kubeloop.leader-election.enabled=true", "kubeloop.leader-election.identity=" + name,
                "kubeloop.shutdown-timeout=5s"));
        all.addAll(properties);
        try {
            this.context = new SpringApplicationBuilder(ReplicaApplication.class)
                    .web(WebApplicationType.NONE)
                    .bannerMode(Banner.Mode.OFF)
                    .logStartupInfo(false)
                    .registerShutdownHook(false)
                    .properties(all.toArray(String[]::new))
                    .initializers(context -> {
                        var beans = context.getBeanFactory();
                        beans.registerSingleton("kubernetesClient", client);
                        beans.registerSingleton("widgetReconciler", new FencedWidgetReconciler(name, register, work));
                        beans.registerSingleton("kubeloopLeadershipLostHandler",
                                new ExitOnLostLeadership(context, exitCodes::add));
                    })
                    .run();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        this.availability = context.getBean(ApplicationAvailability.class);
        this.manager = context.getBean(ControllerManager.class);
    }

    /** Starts a replica; returns once its context is refreshed (caches synced, standing by or leading). */
    static Replica start(MockCluster cluster, String name, FencingRegister register, Duration work,
            String... properties) {
        return new Replica(cluster, name, register, work, List.of(properties));
    }

    LeadershipState leadership() {
        return manager().leadership();
    }

    ControllerManager manager() {
        return manager;
    }

    ApplicationAvailability availability() {
        return availability;
    }

    boolean isRunning() {
        return context.isActive();
    }

    /** A graceful stop, as on SIGTERM: Spring closes the context. */
    void stop() {
        context.close();
    }

    @Override
    public void close() {
        partition.heal();
        context.close();
        client.close();
    }

    @Override
    public String toString() {
        return "replica " + name;
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({KubeloopAutoConfiguration.class, LeaderElectionAutoConfiguration.class,
            ApplicationAvailabilityAutoConfiguration.class})
    static class ReplicaApplication {
    }
}
