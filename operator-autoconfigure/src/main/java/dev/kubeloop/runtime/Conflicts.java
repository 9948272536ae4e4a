package dev.kubeloop.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;

/**
 * Recognizes HTTP 409 Conflict anywhere in an exception's cause chain. A conflict means the cached
 * object was stale when the reconcile wrote; the fix is to run again on the newer object, which the
 * informer is about to deliver, so the runtime requeues quietly instead of logging an error.
 * Stateless.
 */
final class Conflicts {

    private Conflicts() {
    }

    static boolean isConflict(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException e && e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                return true;
            }
        }
        return false;
    }
}
