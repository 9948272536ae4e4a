package dev.kubeloop.test.webhook;

import java.util.List;

/**
 * What an admission request came to, as the API server would see it: allowed or not, the message
 * and code of a denial, every warning (defaulter's and validator's), and the object after the
 * defaulter's patch. Immutable.
 *
 * @param object the object as it would be stored: the request's object with the mutating webhook's
 *     patch applied (the object itself when no defaulter serves its type); null for a delete
 * @param patch the defaulter's JSONPatch as sent, or null when there was none
 * @param code the status code of a denial (403 denied by the validator, 422 invalid with field
 *     errors, 400 bad request, 500 the webhook threw); 200 when allowed
 */
public record AdmissionResult<T>(boolean allowed, int code, String message, List<String> warnings, T object,
        String patch) {

    public AdmissionResult {
        warnings = List.copyOf(warnings);
    }
}
