/**
 * The reconcilers: {@link dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration} (the
 * {@code @Reconciler} scan, the client, the controller manager and its lifecycle, availability, the
 * exits) and {@link dev.kubeloop.autoconfigure.controller.KubeloopProperties} ({@code kubeloop.*}
 * and {@code kubeloop.reconcilers.<name>.*}). Every other concern is ordered after it.
 */
package dev.kubeloop.autoconfigure.controller;
