/**
 * What the application needs from the API server and offers to it, derived from its declarations
 * for the manifests that deploy it ({@code kubeloop:manifests}, docs/security.md): the RBAC rules its
 * reconcilers, leader election and sharding use ({@link dev.kubeloop.manifest.ApplicationAccess}),
 * and the webhook registrations of its validators, defaulters and converters
 * ({@link dev.kubeloop.webhook.WebhookDescription}), written as the YAML files a Helm chart reads
 * ({@link dev.kubeloop.manifest.ManifestFiles}).
 *
 * <p>Depends on the controller's validated settings and the webhook model; no Spring (the
 * auto-configuration's {@code ManifestsDescriber} builds the inputs from a context at build time).
 */
package dev.kubeloop.manifest;
