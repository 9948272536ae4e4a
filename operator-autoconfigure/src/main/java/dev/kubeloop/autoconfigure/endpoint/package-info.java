/**
 * The {@code /actuator/kubeloop} introspection endpoint and its auto-configuration.
 */
package dev.kubeloop.autoconfigure.endpoint;
