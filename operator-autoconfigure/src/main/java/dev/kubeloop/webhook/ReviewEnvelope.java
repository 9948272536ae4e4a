package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What an AdmissionReview and a ConversionReview share on the way in: the review's apiVersion and
 * kind (another version is refused by name), and a request object with a uid to answer to.
 * Immutable.
 *
 * @param request the review's {@code request} object
 * @param uid its uid, never empty
 */
record ReviewEnvelope(JsonNode request, String uid) {

    /**
     * Reads the envelope of a review that must be {@code apiVersion} {@code kind}.
     *
     * @param versionsHint what to list when the kind is right but the version is not
     *     ({@code the CRD's conversionReviewVersions})
     * @throws BadReview naming what is missing or wrong
     */
    static ReviewEnvelope read(Json json, byte[] body, String apiVersion, String kind, String versionsHint)
            throws BadReview {
        JsonNode tree = json.readTree(body);
        String gotVersion = tree.path("apiVersion").asText("");
        String gotKind = tree.path("kind").asText("");
        if (!kind.equals(gotKind) || !apiVersion.equals(gotVersion)) {
            throw new BadReview(null, "expected an " + apiVersion + " " + kind + ", got "
                    + (gotVersion.isEmpty() && gotKind.isEmpty() ? "no apiVersion and kind" : gotVersion + " " + gotKind)
                    + (kind.equals(gotKind) ? " (list only v1 in " + versionsHint + ")" : ""));
        }
        JsonNode request = tree.path("request");
        if (!request.isObject()) {
            throw new BadReview(null, "the " + kind + " has no request");
        }
        String uid = request.path("uid").asText("");
        if (uid.isEmpty()) {
            throw new BadReview(null, "the " + kind + "'s request has no uid");
        }
        return new ReviewEnvelope(request, uid);
    }
}
