package dev.kubeloop.runtime.controller;

import dev.kubeloop.runtime.Causes;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP 403 Forbidden from the API server, found anywhere in an exception's cause chain, with
 * what was refused. A 403 is not a bug in the reconciler but a permission the operator lacks (or,
 * without the authorizer's wording, an admission webhook or a terminating namespace refusing the
 * request), so it deserves one clear line saying what to grant rather than a stack trace per retry.
 * It is still retried with the key's backoff: whoever fixes the Role should not have to restart
 * the operator.
 *
 * <p>The authorizer's denials read {@code <resource>.<group> "<name>" is forbidden: User "<user>"
 * cannot <verb> resource "<resource>[/<subresource>]" in API group "<group>" in the namespace
 * "<namespace>"} (or {@code at the cluster scope}), optionally followed by the RBAC reason; that
 * message names exactly what a Role rule must allow, so it is parsed rather than rebuilt from the
 * request URL (which fabric8 does not parse for subresources). Immutable.
 *
 * <p>What the runtime does about it is {@link Refusals}' business.
 *
 * @param verb the verb refused, e.g. {@code patch}; null when the message is not the authorizer's
 * @param resource the resource, with its subresource ({@code widgets/status}); null likewise
 * @param apiGroup the API group ({@code ""} for the core group); null likewise
 * @param namespace the namespace; null at the cluster scope or when unknown
 * @param user the user the API server authenticated the operator as; null likewise
 * @param apiMessage the API server's message as it came
 */
record Forbidden(String verb, String resource, String apiGroup, String namespace, String user, String apiMessage) {

    static final String EVENT_REASON = "Forbidden";

    private static final Pattern AUTHORIZER_DENIAL = Pattern.compile("User \"([^\"]*)\" cannot (\\S+) resource "
            + "\"([^\"]+)\" in API group \"([^\"]*)\"(?: in the namespace \"([^\"]*)\"| at the cluster scope)");

    /**
     * Pruning and {@code context.delete} are the writes whose permission the code must declare: the
     * rules {@code kubeloop:manifests} derives grant delete only on the kinds in
     * {@code @Reconciler(deletes)} (an owned kind is applied, not necessarily deleted).
     */
    private static final String DELETE = "delete";
    private static final String GENERATED_RBAC_HINT = " (with the rules kubeloop:manifests generates: list the kind in "
            + "@Reconciler(deletes = ...) and rebuild the chart)";

    /** The first 403 in {@code error}'s cause chain, if there is one. */
    static Optional<Forbidden> in(Throwable error) {
        return Causes.status(error, HttpURLConnection.HTTP_FORBIDDEN).map(Forbidden::of);
    }

    private static Forbidden of(KubernetesClientException e) {
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : String.valueOf(e.getMessage());
        Matcher denial = AUTHORIZER_DENIAL.matcher(message);
        if (denial.find()) {
            return new Forbidden(denial.group(2), denial.group(3), denial.group(4), denial.group(5), denial.group(1),
                    message);
        }
        return new Forbidden(null, null, null, e.getNamespace(), null, message);
    }

    /** Whether the authorizer (RBAC) refused the request, rather than admission or the namespace's state. */
    boolean byAuthorizer() {
        return verb != null;
    }

    /**
     * What was refused and what to do about it, in one sentence for the log line and the Event
     * (identical for every retry of one key, so that Events about it aggregate into one).
     */
    String describe() {
        if (!byAuthorizer()) {
            return "The API server refused the request with 403 Forbidden (not an RBAC denial): " + apiMessage;
        }
        String scope = namespace == null ? "at the cluster scope" : "in namespace \"" + namespace + "\"";
        return "RBAC does not allow the operator (user \"" + user + "\") to " + verb + " resource \"" + resource
                + "\" in API group \"" + apiGroup + "\" " + scope + ": grant the verb in the Role or ClusterRole "
                + "bound to the operator's ServiceAccount" + (DELETE.equals(verb) ? GENERATED_RBAC_HINT : "");
    }
}
