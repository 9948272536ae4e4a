package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import org.jspecify.annotations.Nullable;

/**
 * {@link ReconcileContext#apply} would have made an existing object the primary's, and it is
 * not: another owner controls it, or nothing shows that this controller ever applied it (a user's
 * Service that happens to have the name, say). Nothing was sent. Taking it over would change it
 * under its owner's feet and give it an owner reference, so that the garbage collector would
 * delete it with the primary.
 *
 * <p>A {@link KubernetesClientException} with a Status as the API server answers a create of an
 * object that exists (409, {@code AlreadyExists}), so that reconcilers catching the client's
 * exceptions catch it too; {@link ApiRefusal#of} finds it ({@link ApiRefusal#foreign()}), which is
 * how a reconciler says so in a condition. The runtime reports it once per object and generation
 * (a log line, a Warning event {@value #EVENT_REASON} naming the object and its controller) and
 * retries with backoff, not as a conflict: the other owner may go away. To take over an object no
 * one controls, apply it with {@link ApplyOptions#adopt()}.
 */
public final class ForeignObjectException extends KubernetesClientException {

    private static final long serialVersionUID = 1L;

    private final String kind;
    private final @Nullable String namespace;
    private final String name;

    /** The reason of the Warning event on the primary. */
    public static final String EVENT_REASON = "ForeignObject";

    /**
     * @param kind the object's kind
     * @param key its namespace and name
     * @param message what is in the way and what to do, naming the object and whoever controls it
     */
    public ForeignObjectException(String kind, ObjectKey key, String message) {
        super(status(kind, key, message));
        this.kind = kind;
        this.namespace = key.namespace();
        this.name = key.name();
    }

    /** The kind of the object in the way. */
    public String kind() {
        return kind;
    }

    /** The namespace and name of the object in the way. */
    public ObjectKey objectKey() {
        return new ObjectKey(namespace, name);
    }

    private static Status status(String kind, ObjectKey key, String message) {
        return new StatusBuilder().withStatus("Failure").withCode(HttpURLConnection.HTTP_CONFLICT)
                .withReason("AlreadyExists").withMessage(message).withNewDetails().withKind(kind)
                .withName(key.name()).endDetails().build();
    }
}
