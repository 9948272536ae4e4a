package dev.kubeloop.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.HttpURLConnection;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Teaches a fabric8 mock API server's dispatcher server-side apply, which it answers with 415:
 * a PATCH of type {@code application/apply-patch+yaml} becomes a create when the object does not
 * exist, else an update with the applied fields merged in (JSON merge patch; of {@code status} alone
 * on the {@code /status} subresource), locked on the version it read; an apply that changes
 * nothing writes nothing, and keeps the resourceVersion, as on a real server.
 *
 * <p>An approximation, good enough for an embedded API server (the demo, the test kit), not a
 * replacement for the real one; what differs:
 * <ul>
 *   <li>no managedFields, and no conflicts between managers ({@code force} changes nothing); but a
 *       field a manager stops applying is removed unless another manager applies it
 *       ({@link AppliedFields}, remembered while the mock runs);
 *   <li>lists are replaced whole (merge patch), where the real server merges associative lists
 *       (containers by name, ports by port) entry by entry;
 *   <li>{@code status} in an apply of the main resource is ignored, as the real server ignores it
 *       for types with a status subresource; a ConfigMap has no status, so nothing is lost.
 * </ul>
 * Code that must be right against a real API server is tested there (the e2e suites); nothing in
 * the library depends on this class.
 *
 * <p>Thread-safe: stateless apart from the delegate, whose own locking makes each create and merge
 * atomic; two applies racing to create one object end as a create and a merge, as on a real server.
 */
public final class ServerSideApplyDispatcher extends DecoratingDispatcher {

    /** Server-side apply's patch type. */
    public static final String APPLY_PATCH = "application/apply-patch+yaml";
    private static final String STATUS = "/status";
    /** An apply that lost a race (to another create, or another write) is tried again, this many times. */
    private static final int ATTEMPTS = 10;

    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private final AppliedFields fields = new AppliedFields();

    /** Wraps {@code delegate}: everything but server-side apply goes to it unchanged. */
    public ServerSideApplyDispatcher(Dispatcher delegate) {
        super(delegate);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String contentType = request.getHeader("Content-Type");
        if (!"PATCH".equalsIgnoreCase(request.getMethod()) || contentType == null
                || !contentType.startsWith(APPLY_PATCH)) {
            return delegate.dispatch(withoutQuery(request));
        }
        return apply(request);
    }

    /**
     * A write with its query ({@code ?fieldManager=...}) removed: kubernetes-server-mock 7.8.0 does
     * not recognize the {@code /status} subresource in a path that has one, and patches the main
     * resource instead, where the status is ignored. Reads (list and watch parameters) keep theirs.
     */
    private static RecordedRequest withoutQuery(RecordedRequest request) {
        String path = request.getPath();
        int query = path == null ? -1 : path.indexOf('?');
        if (query < 0 || request.method() == HttpMethod.GET) {
            return request;
        }
        return new RecordedRequest(request.getHttpVersion(), request.method(), path.substring(0, query),
                request.getHeaders(), request.getBody());
    }

    private MockResponse apply(RecordedRequest request) {
        String path = request.getPath();
        int query = path.indexOf('?');
        String resourcePath = query < 0 ? path : path.substring(0, query);
        boolean status = resourcePath.endsWith(STATUS);
        String objectPath = status ? resourcePath.substring(0, resourcePath.length() - STATUS.length())
                : resourcePath;
        JsonNode applied;
        try {
            applied = serialization.unmarshal(request.getUtf8Body(), JsonNode.class);
        } catch (RuntimeException e) {
            return status(HttpURLConnection.HTTP_BAD_REQUEST, "BadRequest", "the apply body is neither JSON nor YAML: "
                    + e.getMessage());
        }
        if (applied == null || !applied.isObject()) {
            return status(HttpURLConnection.HTTP_BAD_REQUEST, "BadRequest", "the apply body is not an object");
        }
        JsonNode patch = status ? statusOnly((ObjectNode) applied) : withoutStatus((ObjectNode) applied);
        String manager = fieldManager(path, query);
        MockResponse response = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            MockResponse current = delegate.dispatch(request(HttpMethod.GET, objectPath, null, null));
            if (current.code() == HttpURLConnection.HTTP_NOT_FOUND) {
                if (status) {
                    return current; // a status needs its object, as on the real server
                }
                String collection = objectPath.substring(0, objectPath.lastIndexOf('/'));
                response = delegate.dispatch(request(HttpMethod.POST, collection, "application/json",
                        serialization.asJson(patch)));
                if (response.code() == HttpURLConnection.HTTP_CREATED) {
                    JsonNode created = serialization.unmarshal(response.getBody().readUtf8(), JsonNode.class);
                    fields.removals(objectPath, created.path("metadata").path("uid").asText(), manager, patch);
                    return ok(created, HttpURLConnection.HTTP_CREATED);
                }
                if (response.code() != HttpURLConnection.HTTP_CONFLICT) {
                    return response;
                }
                continue; // another apply created it meanwhile: merge into that one
            }
            if (current.code() != HttpURLConnection.HTTP_OK) {
                return current;
            }
            JsonNode stored = serialization.unmarshal(current.getBody().readUtf8(), JsonNode.class);
            String uid = stored.path("metadata").path("uid").asText();
            JsonNode merged = JsonMergePatch.apply(stored, AppliedFields.withRemovals(patch,
                    fields.removals(resourcePath, uid, manager, patch)));
            if (merged.equals(stored)) {
                return ok(stored); // a real no-op apply does not write (nor move the resourceVersion)
            }
            // locked on the version read: a concurrent write is a 409 here, and the apply tries again
            response = delegate.dispatch(request(HttpMethod.PUT, resourcePath, "application/json",
                    serialization.asJson(merged)));
            if (response.code() != HttpURLConnection.HTTP_CONFLICT) {
                return response;
            }
        }
        return response;
    }

    /** The {@code fieldManager} query parameter; "unknown" without one (the real server requires it). */
    private static String fieldManager(String path, int query) {
        if (query >= 0) {
            for (String parameter : path.substring(query + 1).split("&")) {
                if (parameter.startsWith("fieldManager=")) {
                    return URLDecoder.decode(parameter.substring("fieldManager=".length()), StandardCharsets.UTF_8);
                }
            }
        }
        return "unknown";
    }

    /** The object's identity and its status: what an apply of the status subresource may change. */
    private static JsonNode statusOnly(ObjectNode applied) {
        ObjectNode patch = applied.objectNode();
        copy(applied, patch, "apiVersion");
        copy(applied, patch, "kind");
        copy(applied, patch, "status");
        return patch;
    }

    private static JsonNode withoutStatus(ObjectNode applied) {
        ObjectNode patch = applied.deepCopy();
        patch.remove("status");
        return patch;
    }

    private static void copy(ObjectNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        }
    }

    private MockResponse ok(JsonNode object) {
        return ok(object, HttpURLConnection.HTTP_OK);
    }

    private MockResponse ok(JsonNode object, int code) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(serialization.asJson(object));
    }

    private MockResponse status(int code, String reason, String message) {
        return failure(serialization, code, reason, message);
    }
}
