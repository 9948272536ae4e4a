/**
 * Build-time description of an application for {@code kubeloop:manifests}: RBAC and webhook
 * manifests from a context prepared as {@code process-aot} prepares one. Above every concern.
 */
package dev.kubeloop.autoconfigure.manifests;
