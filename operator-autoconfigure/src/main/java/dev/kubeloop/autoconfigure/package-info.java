/**
 * The Spring glue's shared helpers, which every concern's package below may use and which know none
 * of them: the {@code kubeloop.enabled} condition and the boolean-property reading all conditions
 * share, the failure analyzers (registered in {@code META-INF/spring.factories}), the catalog of
 * every setting, the logging defaults. One package per concern holds each auto-configuration with
 * its properties; see docs/architecture.md.
 */
package dev.kubeloop.autoconfigure;
