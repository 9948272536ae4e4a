package dev.kubeloop.autoconfigure.actuator;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A whole Spring Boot application (web server, actuator, Prometheus registry, Kubeloop) whose only
 * reconciler is {@link OutcomeReconciler}; tests supply the {@code KubernetesClient} of a mock API server.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ActuatorTestApplication {
}
