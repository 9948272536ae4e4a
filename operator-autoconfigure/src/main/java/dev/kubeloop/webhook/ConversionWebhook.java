package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.SpokeConverter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Serves the conversion of one kind between its hub and its spokes. Each object of a review goes
 * spoke → hub ({@code toHub}) → spoke ({@code fromHub}), either end skipped when it is the hub;
 * an object already in the desired version is returned as it came. An object of another kind, of a
 * version no converter knows, or that does not read, fails the whole review with a message that
 * names what was expected. Stateless, thread-safe.
 */
final class ConversionWebhook implements Webhook {

    private final ResourceType hub;
    private final Map<String, Spoke<?>> spokes; // by version
    private final Json json;
    private final String path;

    /** One spoke: its type and the converter to and from the hub. */
    record Spoke<S extends HasMetadata>(ResourceType type, SpokeConverter<HasMetadata, S> converter) {

        @SuppressWarnings("unchecked")
        HasMetadata toHub(HasMetadata spoke) {
            return converter.toHub((S) spoke);
        }

        HasMetadata fromHub(HasMetadata hub) {
            return converter.fromHub(hub);
        }
    }

    ConversionWebhook(ResourceType hub, Map<String, Spoke<?>> spokes, Json json) {
        this.hub = Objects.requireNonNull(hub, "hub");
        this.spokes = Map.copyOf(spokes);
        this.json = json;
        this.path = WebhookType.CONVERSION.path(hub);
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public WebhookType type() {
        return WebhookType.CONVERSION;
    }

    @Override
    public ResourceType resource() {
        return hub;
    }

    /** Every version this webhook converts between, hub first. */
    List<String> versions() {
        List<String> versions = new ArrayList<>();
        versions.add(hub.version());
        versions.addAll(new TreeSet<>(spokes.keySet()));
        return versions;
    }

    @Override
    public WebhookAnswer handle(byte[] body) {
        ConversionReviews.Request request;
        try {
            request = ConversionReviews.read(json, body);
        } catch (BadReview bad) {
            return ConversionReviews.bad(json, bad);
        }
        String desired;
        try {
            desired = version(request.uid(), request.desiredApiVersion(), "the desiredAPIVersion");
        } catch (BadReview bad) {
            return ConversionReviews.bad(json, bad);
        }
        List<JsonNode> converted = new ArrayList<>(request.objects().size());
        int index = 0;
        for (JsonNode object : request.objects()) {
            try {
                converted.add(convert(request.uid(), object, desired, index++));
            } catch (BadReview bad) {
                return ConversionReviews.bad(json, bad);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                return ConversionReviews.failed(json, request.uid(), "converting " + describe(object) + " to "
                        + hub.group() + "/" + desired + " failed: " + AdmissionWebhook.message(e), e);
            }
        }
        return ConversionReviews.converted(json, request.uid(), converted);
    }

    private JsonNode convert(String uid, JsonNode object, String desired, int index) throws BadReview {
        if (!object.isObject()) {
            throw new BadReview(uid, "objects[" + index + "] is not an object");
        }
        String kind = object.path("kind").asText("");
        String apiVersion = object.path("apiVersion").asText("");
        String from = version(uid, apiVersion, "objects[" + index + "]");
        if (!hub.kind().equals(kind)) {
            throw new BadReview(uid, "this webhook (" + path + ") converts " + hub.group() + " " + hub.kind()
                    + ", objects[" + index + "] is a " + (kind.isEmpty() ? "object without kind" : kind));
        }
        if (from.equals(desired)) {
            return object;
        }
        HasMetadata source = json.read(object, javaType(from), uid, "objects[" + index + "] (" + apiVersion + ")");
        HasMetadata inHub = from.equals(hub.version()) ? source : spokes.get(from).toHub(source);
        HasMetadata result = desired.equals(hub.version()) ? inHub : spokes.get(desired).fromHub(inHub);
        if (result == null) {
            throw new IllegalStateException("the converter returned null");
        }
        if (result.getMetadata() == null
                || result.getMetadata().getName() == null && result.getMetadata().getUid() == null) {
            result.setMetadata(source.getMetadata()); // the converter left it empty (a new CustomResource's)
        }
        ObjectNode tree = (ObjectNode) json.tree(result);
        tree.put("apiVersion", hub.group() + "/" + desired);
        tree.put("kind", hub.kind());
        return tree;
    }

    private Class<? extends HasMetadata> javaType(String version) {
        return version.equals(hub.version()) ? hub.javaType() : spokes.get(version).type().javaType();
    }

    /** The version of {@code apiVersion}, if it is of this kind's group and a version served here. */
    private String version(String uid, String apiVersion, String what) throws BadReview {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        if (!group.equals(hub.group()) || !(version.equals(hub.version()) || spokes.containsKey(version))) {
            throw new BadReview(uid, what + " has apiVersion '" + apiVersion + "', this webhook (" + path
                    + ") converts " + hub.kind() + " between " + String.join(", ",
                            versions().stream().map(v -> hub.group() + "/" + v).toList()));
        }
        return version;
    }

    private static String describe(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        String namespace = metadata.path("namespace").asText("");
        return object.path("kind").asText("object") + " " + (namespace.isEmpty() ? "" : namespace + "/")
                + metadata.path("name").asText("") + " (" + object.path("apiVersion").asText("") + ")";
    }
}
