package dev.kubeloop.api.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Converts one served version of a CRD (a spoke) to and from its hub, the version every other
 * version converts through: controller-runtime's hub-and-spoke conversion ({@code Hub} and
 * {@code Convertible}). With a hub {@code v1} and spokes {@code v1alpha1} and {@code v1beta1},
 * {@code v1alpha1 → v1beta1} is {@code toHub} of the one and {@code fromHub} of the other. Make
 * the hub the CRD's storage version, and the Java class your reconciler works with.
 *
 * <p>Declare one bean per spoke; Kubeloop serves all versions of a kind at
 * {@code /convert-<group>-<kind>} ({@code /convert-sample-kubeloop-dev-website}), the path of
 * the CRD's {@code spec.conversion.webhook.clientConfig}. It sets {@code apiVersion} and
 * {@code kind} of the result, and gives it the source's {@code metadata} when the converter leaves
 * it empty (null, or without name and uid, as a new {@code CustomResource} has it). The API server allows a conversion to change labels and annotations only, so copy the
 * metadata rather than building new.
 *
 * <p>Conversions should be lossless both ways (an object read as v1alpha1, changed and written
 * back must keep what only v1 can say): keep such fields in an annotation of the spoke. A
 * converter that throws fails the whole ConversionReview with the exception's message (the API
 * server then fails the request), counted in
 * {@code controller_runtime_conversion_webhook_panics_total}. Called concurrently; keep it
 * stateless.
 *
 * @param <H> the hub type
 * @param <S> the spoke type: same group and kind, another version
 */
public interface SpokeConverter<H extends HasMetadata, S extends HasMetadata> {

    /** {@code spoke} in the hub's version. */
    H toHub(S spoke);

    /** {@code hub} in the spoke's version. */
    S fromHub(H hub);
}
