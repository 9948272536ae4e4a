/**
 * {@code sample.kubeloop.dev/v1alpha1 Website}, the version before v1: still served, converted to
 * and from the hub ({@code dev.kubeloop.sample.website.Website}, v1) by the operator's conversion
 * webhook, never stored. Only the conversion uses these classes; the reconciler works with v1.
 */
package dev.kubeloop.sample.website.v1alpha1;
