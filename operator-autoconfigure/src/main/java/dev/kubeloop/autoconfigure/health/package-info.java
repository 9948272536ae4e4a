/**
 * The {@code kubeloop} health contributor and its membership of the readiness group (which the
 * webhook auto-configuration reuses for its {@code webhook} contributor).
 */
package dev.kubeloop.autoconfigure.health;
