package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.health.ReadinessIncludesKubeloop;
import dev.kubeloop.health.WebhookHealthIndicator;
import dev.kubeloop.metrics.WebhookMetrics;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.webhook.ThrowawayCertificates;
import dev.kubeloop.webhook.WebhookObserver;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.WebhookSettings;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Collects the application's validators, defaulters and converters ({@code dev.kubeloop.api.webhook}
 * beans) into {@link Webhooks}, and, unless {@code kubeloop.webhook.enabled} is false, serves them
 * over HTTPS on {@code kubeloop.webhook.port} with the certificate of the SSL bundle
 * {@code kubeloop.webhook.ssl-bundle}, reloaded when its files change; with the webhook metrics
 * when there is a {@link MeterRegistry}, and the {@code webhook} health contributor in the
 * readiness group; with {@code kubeloop.webhook.dev-registration.enabled}, registered with the
 * cluster for the development loop. Active when Kubeloop is and the application has at least one such bean. Only
 * glue: the server is {@code dev.kubeloop.webhook.WebhookServer}.
 */
@AutoConfiguration(after = {KubeloopAutoConfiguration.class, SslAutoConfiguration.class}, afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
    "org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration",
    "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration"})
@Conditional({OnKubeloopEnabledCondition.class, OnWebhookBeansCondition.class})
@ConditionalOnBean(KubernetesClient.class)
@EnableConfigurationProperties(WebhookProperties.class)
public final class KubeloopWebhookAutoConfiguration {

    /** The webhooks by path, read and written with the client's serialization (unknown fields ignored). */
    @Bean
    @ConditionalOnMissingBean
    Webhooks kubeloopWebhooks(ListableBeanFactory beanFactory, KubernetesClient kubernetesClient) {
        return WebhookBeans.collect(beanFactory, kubernetesClient.getKubernetesSerialization());
    }

    /** The HTTPS server, unless {@code kubeloop.webhook.enabled} is false. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnWebhookServerEnabledCondition.class)
    static class Server {

        @Bean
        @ConditionalOnMissingBean
        WebhookServer kubeloopWebhookServer(Webhooks kubeloopWebhooks, WebhookProperties properties,
                SslBundles sslBundles, ObjectProvider<WebhookObserver> observers,
                ObjectProvider<ThrowawayCertificates> kubeloopDevWebhookCertificates, ObjectProvider<Tracing> tracing) {
            List<WebhookObserver> all = observers.orderedStream().toList();
            return WebhookServerFactory.create(kubeloopWebhooks, properties, sslBundles,
                    kubeloopDevWebhookCertificates.getIfAvailable(), all.isEmpty() ? List.of(WebhookObserver.none()) : all,
                    tracing.getIfAvailable(() -> Tracing.OFF));
        }

        @Bean
        WebhookServerLifecycle kubeloopWebhookServerLifecycle(WebhookServer kubeloopWebhookServer) {
            return new WebhookServerLifecycle(kubeloopWebhookServer);
        }
    }

    /**
     * The development loop: the webhooks registered with the cluster, served by this process with a
     * throwaway CA, removed at stop ({@link WebhookDevRegistration}). Never on by default; refused in
     * a cluster, and with the server switched off (the condition fails start-up naming both properties).
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnWebhookDevRegistrationCondition.class)
    static class DevRegistration {

        @Bean
        ThrowawayCertificates kubeloopDevWebhookCertificates(Environment environment, WebhookProperties properties) {
            DevRegistrationName.refuseInCluster(environment);
            return WebhookDevRegistration.certificates(host(properties));
        }

        @Bean
        WebhookDevRegistration kubeloopWebhookDevRegistration(KubernetesClient kubernetesClient,
                Webhooks kubeloopWebhooks, WebhookServer kubeloopWebhookServer,
                ThrowawayCertificates kubeloopDevWebhookCertificates, WebhookProperties properties,
                Environment environment) {
            return new WebhookDevRegistration(kubernetesClient, kubeloopWebhooks, kubeloopWebhookServer,
                    kubeloopDevWebhookCertificates, host(properties), DevRegistrationName.of(environment));
        }

        private static String host(WebhookProperties properties) {
            return WebhookSettings.DEV_REGISTRATION_HOST.check(properties.getDevRegistration().getHost())
                    .trim();
        }
    }

    /** controller-runtime's webhook metrics, when the application has a registry. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnWebhookServerEnabledCondition.class)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        WebhookMetrics kubeloopWebhookMetrics(MeterRegistry meterRegistry) {
            return new WebhookMetrics(meterRegistry);
        }
    }

    /** The {@code webhook} health contributor, a member of the readiness group. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnWebhookServerEnabledCondition.class)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("webhook")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "webhookHealthIndicator")
        WebhookHealthIndicator webhookHealthIndicator(WebhookServer kubeloopWebhookServer) {
            return new WebhookHealthIndicator(kubeloopWebhookServer);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = {
            "org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor",
            "org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper"})
        static class Readiness {

            @Bean
            static ReadinessIncludesKubeloop webhookReadinessGroupPostProcessor(
                    ObjectProvider<HealthEndpointProperties> properties) {
                return new ReadinessIncludesKubeloop(properties, "webhook");
            }
        }
    }
}
