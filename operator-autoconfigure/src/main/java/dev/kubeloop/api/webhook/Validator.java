package dev.kubeloop.api.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Checks what a CRD's schema cannot say: rules across fields, across an object's old and new
 * state, or about deletion. controller-runtime's {@code CustomValidator}. Declare it as a bean;
 * Kubeloop serves it at {@code /validate-<group>-<version>-<kind>} (dots of the group as dashes,
 * kind in lower case: {@code /validate-sample-kubeloop-dev-v1-website}), for the type of
 * {@code T}: one validator per type.
 *
 * <p>The objects are private copies read from the request; modifying them changes nothing. A
 * method that throws denies the request with the exception's message (and is counted in
 * {@code controller_runtime_webhook_panics_total}): prefer returning {@link Admission#denied}.
 * Called concurrently from the webhook server's threads, so keep it stateless. It runs inside
 * the API server's request, which waits for it ({@code timeoutSeconds}, at most 30 s): never block
 * on anything slow.
 *
 * <p><b>Validation never blocks a deletion.</b> An update that only removes finalizers or owner
 * references of an object being deleted (besides what the API server writes itself:
 * managedFields, resourceVersion, generation, status) is allowed without calling
 * {@link #validateUpdate}: otherwise an object stored before a stricter rule could never go, nor
 * its namespace. {@link #validateDelete} is the only way to refuse a deletion, and an explicit one.
 * Likewise an update that only adds finalizers to an object not being deleted is allowed without
 * calling {@link #validateUpdate}: that is how a controller makes sure it sees the deletion, and
 * refused, an object stored invalid would never be reconciled to say what is wrong with it.
 *
 * @param <T> the resource type, the version the webhook configuration matches (the API server
 *     converts other versions to it first, with {@code matchPolicy: Equivalent})
 */
public interface Validator<T extends HasMetadata> {

    /** A create of {@code object}. */
    default Admission validateCreate(T object, AdmissionContext context) {
        return Admission.allowed();
    }

    /** An update from {@code oldObject} to {@code newObject}. */
    default Admission validateUpdate(T oldObject, T newObject, AdmissionContext context) {
        return Admission.allowed();
    }

    /**
     * A delete of {@code oldObject}. Called only when the webhook configuration lists
     * {@code DELETE} among its operations (the chart's do not). <b>A denial here keeps the object,
     * and with it its namespace and its CRD, until the validator changes its mind:</b> refuse only
     * what would lose something for good, and say in the message how to get past it. Never called
     * for the finalizer removals that complete a deletion.
     */
    default Admission validateDelete(T oldObject, AdmissionContext context) {
        return Admission.allowed();
    }
}
