package dev.kubeloop.autoconfigure.tracing;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * An application as a user switches tracing on: Brave's Spring Boot module on the class path and a
 * sampling probability; its only reconciler is {@link TracedReconciler}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TracingTestApplication {
}
