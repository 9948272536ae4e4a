package dev.kubeloop.api.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Fills in what the user left out, on create and update: controller-runtime's
 * {@code CustomDefaulter}. Declare it as a bean; Kubeloop serves it at
 * {@code /mutate-<group>-<version>-<kind>}, one defaulter per type.
 *
 * <p>{@code object} is a private copy read from the request: change it in place. Kubeloop
 * compares it with the object as your class read it and answers with a JSONPatch of exactly those
 * changes, so fields your Java class does not know are left as the user sent them. A field your
 * class initializes (a Java default) is not written by the patch unless you change it; put
 * constants in the CRD schema's {@code default} instead. A defaulter that throws denies the
 * request with the exception's message, and is counted in
 * {@code controller_runtime_webhook_panics_total}.
 *
 * <p>Called concurrently; keep it stateless and fast (it runs inside the API server's request).
 * Mutating webhooks may be called more than once per request ({@code reinvocationPolicy}):
 * defaulting must be idempotent, which filling in only what is missing is.
 *
 * @param <T> the resource type
 */
public interface Defaulter<T extends HasMetadata> {

    /** Sets the defaults on {@code object}. */
    void applyDefaults(T object, AdmissionContext context);
}
