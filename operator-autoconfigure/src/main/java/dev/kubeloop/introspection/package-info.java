/**
 * Introspection of the runtime at work ({@link dev.kubeloop.introspection.Introspection}): the
 * implementation behind {@code /actuator/kubeloop}, kept apart from its Spring wiring in the
 * auto-configuration. Depends on the runtime, never on Spring.
 */
package dev.kubeloop.introspection;
