package dev.kubeloop.mock;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;

/**
 * Teaches a fabric8 mock API server's dispatcher the preconditions of a delete, which it ignores
 * (it never reads a DELETE's body): a {@code DeleteOptions} whose {@code preconditions} name a
 * {@code uid} or {@code resourceVersion} the stored object no longer has is refused with 409
 * Conflict, worded as the API server words it, and deletes nothing. Code that deletes only the
 * version it judged (a prune, a stale member's Lease) can then be tested on the mock.
 *
 * <p>Thread-safe: stateless. The check and the delete are two calls to the delegate, not one
 * atomic step as on the real server: a write that lands between them is not seen; an embedded
 * server's tests do not race a write into that window.
 */
public final class DeletePreconditionsDispatcher extends DecoratingDispatcher {

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    /** Wraps {@code delegate}: every request goes to it, a delete only once its preconditions hold. */
    public DeletePreconditionsDispatcher(Dispatcher delegate) {
        super(delegate);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (request.method() != HttpMethod.DELETE || request.getBody() == null) {
            return delegate.dispatch(request);
        }
        String body = request.getUtf8Body(); // reading empties the buffer: the delegate gets a copy
        MockResponse refused = refusal(request.getPath(), body);
        return refused != null ? refused : delegate.dispatch(new RecordedRequest(request.getHttpVersion(),
                request.method(), request.getPath(), request.getHeaders(), new Buffer().writeUtf8(body)));
    }

    /** The 409 a delete gets when its preconditions do not hold; null when they do, or it has none. */
    private MockResponse refusal(String path, String body) {
        JsonNode preconditions;
        try {
            preconditions = preconditions(body);
        } catch (RuntimeException e) {
            return failure(serialization, HttpURLConnection.HTTP_BAD_REQUEST, "BadRequest",
                    "the delete's body is not DeleteOptions: " + e.getMessage());
        }
        if (preconditions == null) {
            return null;
        }
        int query = path.indexOf('?');
        String objectPath = query < 0 ? path : path.substring(0, query);
        MockResponse current = delegate.dispatch(request(HttpMethod.GET, objectPath, null, null));
        if (current.code() != HttpURLConnection.HTTP_OK) {
            return null; // the delegate answers the delete as it answers the read: 404 when it is gone
        }
        JsonNode stored = serialization.unmarshal(current.getBody().readUtf8(), JsonNode.class);
        if (stored.has("items")) {
            return null; // a delete of a collection: no one object whose preconditions to check
        }
        JsonNode metadata = stored.path("metadata");
        String problem = mismatch("UID", preconditions.path("uid"), metadata.path("uid"));
        if (problem == null) {
            problem = mismatch("ResourceVersion", preconditions.path("resourceVersion"),
                    metadata.path("resourceVersion"));
        }
        if (problem == null) {
            return null;
        }
        String[] segments = objectPath.split("/");
        String resource = segments[segments.length - 2];
        String name = segments[segments.length - 1];
        return failure(serialization, HttpURLConnection.HTTP_CONFLICT, "Conflict",
                "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + problem);
    }

    private JsonNode preconditions(String body) {
        if (body.isBlank()) {
            return null;
        }
        JsonNode preconditions = serialization.unmarshal(body, JsonNode.class).path("preconditions");
        return preconditions.isObject() ? preconditions : null;
    }

    /** The API server's words for a precondition the object does not meet; null when it does, or none is given. */
    private static String mismatch(String field, JsonNode wanted, JsonNode actual) {
        if (wanted.isMissingNode() || wanted.isNull() || wanted.asText().equals(actual.asText())) {
            return null;
        }
        return "Precondition failed: " + field + " in precondition: " + wanted.asText() + ", " + field
                + " in object meta: " + actual.asText();
    }
}
