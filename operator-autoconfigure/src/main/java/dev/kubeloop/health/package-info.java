/**
 * Spring Boot health for the runtime: {@link dev.kubeloop.health.KubeloopHealthIndicator} reports
 * the manager, and per controller its caches, workers and leadership, as the {@code kubeloop}
 * health contributor that the readiness probe includes. Depends on the runtime and Spring Boot's
 * health API only; the Spring auto-configuration wires it.
 */
package dev.kubeloop.health;
