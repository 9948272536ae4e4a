package dev.kubeloop.autoconfigure.endpoint;

import dev.kubeloop.introspection.Introspection;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * {@code /actuator/kubeloop}: the web face of {@link Introspection}.
 *
 * <ul>
 *   <li>{@code GET /actuator/kubeloop}: the manager and every controller;
 *   <li>{@code GET /actuator/kubeloop/{controller}}: one controller;
 *   <li>{@code POST /actuator/kubeloop/{controller}} with {@code {"key": "namespace/name"}} (or
 *       {@code "name"} for a cluster-scoped type): queue a reconcile of that object now, if the
 *       controller reconciles it (404 otherwise: nothing is queued for objects it does not serve).
 *       A write operation: off unless {@code management.endpoint.kubeloop.access=unrestricted}.
 * </ul>
 * Like every actuator endpoint it is served only once exposed
 * ({@code management.endpoints.web.exposure.include=kubeloop}).
 *
 * <p>The JSON is written with fabric8's {@link KubernetesSerialization} (Jackson 2), not Boot's
 * Jackson 3, which does not know fabric8's types; the body is plain maps, lists, strings and
 * numbers, so it is stable whatever the mapper's settings. Thread-safe.
 */
@WebEndpoint(id = "kubeloop", defaultAccess = Access.READ_ONLY)
public final class KubeloopEndpoint {

    private static final MimeType JSON = MimeTypeUtils.APPLICATION_JSON;

    private final Introspection introspection;
    private final KubernetesSerialization serialization;

    public KubeloopEndpoint(Introspection introspection, KubernetesSerialization serialization) {
        this.introspection = introspection;
        this.serialization = serialization;
    }

    @ReadOperation
    public WebEndpointResponse<String> controllers() {
        return json(introspection.manager(), WebEndpointResponse.STATUS_OK);
    }

    @ReadOperation
    public WebEndpointResponse<String> controller(@Selector String controller) {
        Optional<Map<String, Object>> found = introspection.controller(controller);
        return found.map(body -> json(body, WebEndpointResponse.STATUS_OK)).orElseGet(() -> notFound(controller));
    }

    /**
     * Queues a reconcile of {@code key} on {@code controller}, as if the object had changed.
     *
     * @param key {@code namespace/name}, or {@code name} for a cluster-scoped primary type
     */
    @WriteOperation
    public WebEndpointResponse<String> enqueue(@Selector String controller, String key) {
        Introspection.Enqueued enqueued;
        try {
            enqueued = introspection.enqueue(controller, key);
        } catch (IllegalArgumentException e) {
            return json(Map.of("error", e.getMessage()), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        return switch (enqueued) {
            case QUEUED -> json(Map.of("controller", controller, "key", key.trim(), "queued", true), 202);
            case NO_SUCH_CONTROLLER -> notFound(controller);
            case NOT_RECONCILED -> json(Map.of("error", "'" + key.trim() + "' is not reconciled by " + controller
                    + ": no such object in the namespaces it watches"), WebEndpointResponse.STATUS_NOT_FOUND);
            case SHUTTING_DOWN -> json(Map.of("error", "controller " + controller + " is shutting down"),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        };
    }

    private WebEndpointResponse<String> notFound(String controller) {
        return json(Map.of("error", "no controller named '" + controller + "'", "controllers",
                introspection.controllerNames()), WebEndpointResponse.STATUS_NOT_FOUND);
    }

    private WebEndpointResponse<String> json(Object body, int status) {
        return new WebEndpointResponse<>(serialization.asJson(body), status, JSON);
    }
}
