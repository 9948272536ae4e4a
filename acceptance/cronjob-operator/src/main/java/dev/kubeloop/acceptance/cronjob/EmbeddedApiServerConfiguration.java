package dev.kubeloop.acceptance.cronjob;

import dev.kubeloop.mock.EmbeddedApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * With no cluster configured, the operator runs against an API server in the JVM (Kubeloop's
 * {@link EmbeddedApiServer}: it stores and watches objects, applies server-side, and answers
 * kubectl; it runs no controllers) with every CRD the build generated (the CronJob CRD, and those of
 * kinds added later with {@code kubeloop:create-api}), so that {@code ./mvnw spring-boot:run}
 * works on the first try. Its {@link KubernetesClient} replaces the one Kubeloop would build from
 * the kubeconfig. {@code operator.embedded-api-server}: {@code auto} (default), {@code on}, {@code off}.
 * The embedded API server is an optional dependency, left out of the packaged jar: there
 * {@code auto} is off.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedApiServerConfiguration.NoClusterConfigured.class)
class EmbeddedApiServerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedApiServerConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedApiServer embeddedApiServer() {
        return EmbeddedApiServer.start().createGeneratedCrds(getClass().getClassLoader());
    }

    @Bean(destroyMethod = "") // closed with the server
    KubernetesClient kubernetesClient(EmbeddedApiServer server) {
        return server.client();
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> embeddedApiServerHint(EmbeddedApiServer server) {
        return event -> {
            log.info("No cluster configured: embedded API server at {} with the CRDs of this project", server.url());
            log.info("Try: kubectl --server {} apply -f examples/cronjob.yaml", server.url());
            log.info("then: kubectl --server {} get cronjobs,configmaps -A (stop with Ctrl+C)", server.url());
        };
    }

    /**
     * {@code on}; or {@code auto} and no cluster configured: not in a pod, no {@code KUBECONFIG}
     * file, no {@code ~/.kube/config}, no {@code kubernetes.master}.
     */
    static final class NoClusterConfigured extends SpringBootCondition {

        static final String PROPERTY = "operator.embedded-api-server";

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Environment environment = context.getEnvironment();
            String mode = environment.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
            // an optional dependency: in spring-boot:run and the tests, not in the packaged jar
            boolean present = ClassUtils.isPresent("dev.kubeloop.mock.EmbeddedApiServer", context.getClassLoader());
            return switch (mode) {
                case "on", "true" -> {
                    if (!present) {
                        throw new IllegalStateException(PROPERTY + "=" + mode + " needs the embedded API server, "
                                + "which the packaged jar leaves out: use ./mvnw spring-boot:run");
                    }
                    yield ConditionOutcome.match(PROPERTY + "=" + mode);
                }
                case "off", "false" -> ConditionOutcome.noMatch(PROPERTY + "=" + mode);
                case "auto" -> !present ? ConditionOutcome.noMatch("no embedded API server in this jar")
                        : EmbeddedApiServer.configuredCluster(environment::getProperty)
                        .map(ConditionOutcome::noMatch).orElseGet(() -> ConditionOutcome.match("no cluster configured"));
                default -> throw new IllegalStateException("Invalid value '" + mode + "' for " + PROPERTY
                        + ": expected auto, on or off");
            };
        }
    }
}
