package dev.kubeloop.autoconfigure.controller;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.api.webhook.SpokeConverter;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.runtime.manager.WorkGate;
import dev.kubeloop.webhook.WebhookServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * Runs the application's reconcilers: registers {@code @Reconciler} classes from the application's
 * packages as beans, builds a {@link ControllerManager} with a controller for every
 * {@code ResourceReconciler} bean, and starts and stops it with the context. Provides a fabric8
 * {@link KubernetesClient} (kubeconfig or in-cluster, as fabric8 detects) unless the application
 * defines one. Every {@link ControllerObserver} bean (metrics, liveness) observes the manager.
 * The manager's workers start once the caches have synced, or, when there is a
 * {@link WorkGate} bean (leader election or sharding), when the gate opens them.
 * {@code kubeloop.enabled=false} switches all of it off.
 *
 * <p>The manager's caches start as soon as the manager exists, while the rest of the context is
 * still being built (its web server, actuator, the application's other beans): the served-CRD
 * check and the first lists wait on the API server, the refresh keeps the CPU busy, and the two
 * overlap instead of adding up. {@link KubeloopLifecycle} then only waits for them; everything that
 * can fail still fails the refresh from there, and no reconcile runs before it. Not when this
 * application serves conversion webhooks ({@code SpokeConverter} beans and a webhook server): the
 * first lists of a converted kind may need this very server, which starts with the context's
 * lifecycle (where the test kit also points the CRD's conversion at it, an update of the CRD that
 * the API server may answer by ending the watches begun before); the caches then start from the
 * lifecycle, after the webhook server, as before.
 *
 * <p>{@code kubeloop.exit-when-ready=true} makes the application exit once it is ready, for the
 * training run of an ahead-of-time cache ({@link ExitWhenReady}).
 */
@AutoConfiguration
@Conditional(OnKubeloopEnabledCondition.class)
@EnableConfigurationProperties(KubeloopProperties.class)
@Import(ReconcilerScanRegistrar.class)
public final class KubeloopAutoConfiguration {

    /**
     * fabric8's client, reading objects the way client-go does: fields the Java model does not
     * know (added by a newer CRD version, or preserved unknown fields) are ignored instead of
     * failing the read, so an operator keeps working while its CRD moves ahead of its model.
     * fabric8's default mapper fails on them, which left such objects unreconciled.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    KubernetesClient kubernetesClient() {
        ObjectMapper mapper = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        return new KubernetesClientBuilder().withKubernetesSerialization(new KubernetesSerialization(mapper, true))
                .build();
    }

    @Bean
    @ConditionalOnMissingBean
    ControllerManager kubeloopControllerManager(KubernetesClient kubernetesClient, KubeloopProperties properties,
            ListableBeanFactory beanFactory, ObjectProvider<ControllerObserver> observers,
            ObjectProvider<WorkGate> workGate, ObjectProvider<Tracing> tracing) {
        ControllerManager manager = ControllerManagerFactory.create(kubernetesClient, properties,
                ReconcilerBean.findAll(beanFactory), observers.orderedStream().toList(),
                workGate.getIfAvailable(WorkGate::alwaysOpen), tracing.getIfAvailable(() -> Tracing.OFF));
        if (!servesConversions(beanFactory)) {
            manager.startCaches();
        }
        return manager;
    }

    /**
     * True if the application will serve conversion webhooks: it has a converter bean and a
     * webhook server bean (without creating either). Asked here rather than of the webhook
     * auto-configuration, which comes after this one.
     */
    private static boolean servesConversions(ListableBeanFactory beanFactory) {
        return beanFactory.getBeanNamesForType(SpokeConverter.class, true, false).length > 0
                && beanFactory.getBeanNamesForType(WebhookServer.class, true, false).length > 0;
    }

    @Bean
    KubeloopAvailability kubeloopAvailability(ApplicationEventPublisher publisher,
            ObjectProvider<ApplicationAvailability> availability) {
        return new KubeloopAvailability(publisher, availability);
    }

    @Bean
    @ConditionalOnMissingBean
    ExitWhenReady kubeloopExitWhenReady(KubeloopProperties properties) {
        return new ExitWhenReady(properties, System::exit);
    }

    @Bean
    @ConditionalOnMissingBean
    KubeloopLifecycle kubeloopLifecycle(ControllerManager kubeloopControllerManager) {
        return new KubeloopLifecycle(kubeloopControllerManager);
    }

    /**
     * SIGTERM exits 0 once the graceful shutdown has run ({@link ExitZeroOnSigterm}), installed
     * before the manager starts, so a stop while the caches sync is clean too;
     * {@code kubeloop.exit-zero-on-sigterm=false} leaves the JVM's handling.
     */
    @Bean
    static SmartInitializingSingleton kubeloopExitZeroOnSigterm(ObjectProvider<KubeloopProperties> properties) {
        return () -> {
            if (properties.getObject().isExitZeroOnSigterm()) {
                ExitZeroOnSigterm.install();
            }
        };
    }
}
