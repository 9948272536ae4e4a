package dev.kubeloop.autoconfigure.secrets;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A whole Spring Boot application (web server, actuator, Prometheus registry, Kubeloop) whose only
 * reconciler is {@link CredentialsReconciler}; tests supply the {@code KubernetesClient}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SecretOwningApplication {
}
