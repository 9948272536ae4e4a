package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Records Kubernetes Events about an object, where {@code kubectl describe} shows them.
 *
 * <p>Recording never blocks the reconcile and never fails it: events are written in the
 * background, repeats of the same event are aggregated into one Event with a count, and a hot
 * loop is rate-limited per object so it cannot flood the API server. Thread-safe.
 */
public interface EventRecorder {

    /** Records a {@code Normal} event: something expected happened (created, scaled, ...). */
    void normal(HasMetadata regarding, String reason, String message);

    /** Records a {@code Warning} event: something the object's owner should look at. */
    void warning(HasMetadata regarding, String reason, String message);
}
