package dev.kubeloop.test.webhook;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Defaulter;
import dev.kubeloop.api.webhook.SpokeConverter;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.webhook.ResourceType;
import dev.kubeloop.webhook.WebhookAnswer;
import dev.kubeloop.webhook.WebhookType;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Runs validators, defaulters and converters the way the API server calls them, without TLS, a
 * server or a cluster: each request is a real AdmissionReview or ConversionReview body handed to
 * Kubeloop's own webhook handling ({@link Webhooks#handle}), and the answer is read back as the API
 * server reads it. An admission goes through the mutating webhook of the object's type first (its
 * JSONPatch is applied to the object), then the validating one, as the API server orders them.
 *
 * <pre>{@code
 * WebhookTester webhooks = WebhookTester.builder()
 *         .validator(Website.class, new WebsiteValidator())
 *         .defaulter(Website.class, new WebsiteDefaulter()).build();
 * AdmissionResult<Website> result = webhooks.create(website);
 * assertThat(result.allowed()).isFalse();
 * assertThat(result.message()).contains("spec.tls.secretName is required");
 * }</pre>
 *
 * In a {@code @KubeloopTest}, {@code kit.webhooks()} is a tester of the application's own webhook
 * beans. Thread-safe.
 */
public final class WebhookTester {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Webhooks webhooks;
    private final KubernetesSerialization serialization;

    private WebhookTester(Webhooks webhooks, KubernetesSerialization serialization) {
        this.webhooks = webhooks;
        this.serialization = serialization;
    }

    /** A tester of {@code webhooks}, reading answers with {@code serialization}. */
    public static WebhookTester of(Webhooks webhooks, KubernetesSerialization serialization) {
        return new WebhookTester(webhooks, serialization);
    }

    /** A tester of the webhooks you add, with a serialization that ignores unknown fields, as an operator's. */
    public static Builder builder() {
        return new Builder(new KubernetesSerialization(
                new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true));
    }

    public <T extends HasMetadata> AdmissionResult<T> create(T object) {
        return admit("CREATE", object, null, false);
    }

    /** A {@code --dry-run=server} create: the webhooks see {@code dryRun: true}. */
    public <T extends HasMetadata> AdmissionResult<T> createDryRun(T object) {
        return admit("CREATE", object, null, true);
    }

    public <T extends HasMetadata> AdmissionResult<T> update(T oldObject, T newObject) {
        return admit("UPDATE", newObject, oldObject, false);
    }

    public <T extends HasMetadata> AdmissionResult<T> delete(T object) {
        return admit("DELETE", null, object, false);
    }

    /**
     * {@code object} converted by the conversion webhook of its kind to the version of {@code to}.
     *
     * @throws AssertionError if the conversion failed, with the webhook's message
     */
    public <R extends HasMetadata> R convert(HasMetadata object, Class<R> to) {
        ResourceType target = ResourceType.of(to);
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1")
                .put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", UUID.randomUUID().toString())
                .put("desiredAPIVersion", target.apiVersion());
        request.putArray("objects").add(tree(object));
        WebhookAnswer answer = webhooks.handle(WebhookType.CONVERSION.path(target), bytes(review));
        JsonNode response = read(answer).path("response");
        if (!"Success".equals(response.at("/result/status").asText())) {
            throw new AssertionError("Conversion to " + target + " failed (HTTP " + answer.status() + "): "
                    + response.at("/result/message").asText(answer.bodyText()));
        }
        return serialization.convertValue(response.at("/convertedObjects/0"), to);
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> AdmissionResult<T> admit(String operation, T object, T oldObject, boolean dryRun) {
        HasMetadata any = object != null ? object : oldObject;
        Class<T> type = (Class<T>) any.getClass();
        ResourceType resource = ResourceType.of(type);
        JsonNode current = object == null ? null : tree(object);
        List<String> warnings = new ArrayList<>();
        String patch = null;
        String mutatePath = WebhookType.MUTATING.path(resource);
        if (webhooks.at(mutatePath).isPresent()) {
            JsonNode response = answer(mutatePath, review(operation, resource, any, current, oldObject, dryRun));
            warnings.addAll(warnings(response));
            if (!response.path("allowed").asBoolean()) {
                return denied(response, warnings);
            }
            if (response.hasNonNull("patch")) {
                patch = new String(Base64.getDecoder().decode(response.get("patch").asText()), StandardCharsets.UTF_8);
                current = JsonPatch.apply(readTree(patch), current);
            }
        }
        String validatePath = WebhookType.VALIDATING.path(resource);
        if (webhooks.at(validatePath).isPresent()) {
            JsonNode response = answer(validatePath, review(operation, resource, any, current, oldObject, dryRun));
            warnings.addAll(warnings(response));
            if (!response.path("allowed").asBoolean()) {
                return denied(response, warnings);
            }
        }
        T stored = current == null ? null : serialization.convertValue(current, type);
        return new AdmissionResult<>(true, 200, null, warnings, stored, patch);
    }

    private JsonNode answer(String path, ObjectNode review) {
        WebhookAnswer answer = webhooks.handle(path, bytes(review));
        if (answer.status() != 200) {
            throw new AssertionError("The webhook at " + path + " answered HTTP " + answer.status() + ": "
                    + answer.bodyText());
        }
        return read(answer).path("response");
    }

    private ObjectNode review(String operation, ResourceType resource, HasMetadata any, JsonNode object,
            HasMetadata oldObject, boolean dryRun) {
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request").put("uid", UUID.randomUUID().toString());
        request.putObject("kind").put("group", resource.group()).put("version", resource.version())
                .put("kind", resource.kind());
        request.putObject("resource").put("group", resource.group()).put("version", resource.version())
                .put("resource", HasMetadata.getPlural(resource.javaType()));
        request.set("requestKind", request.get("kind"));
        request.put("operation", operation).put("dryRun", dryRun);
        if (any.getMetadata() != null) {
            request.put("name", any.getMetadata().getName()).put("namespace", any.getMetadata().getNamespace());
        }
        request.putObject("userInfo").put("username", "kubeloop-test").putArray("groups").add("system:authenticated");
        if (object != null) {
            request.set("object", object);
        }
        if (oldObject != null) {
            request.set("oldObject", tree(oldObject));
        }
        return review;
    }

    private static <T> AdmissionResult<T> denied(JsonNode response, List<String> warnings) {
        return new AdmissionResult<>(false, response.at("/status/code").asInt(), response.at("/status/message").asText(),
                warnings, null, null);
    }

    private static List<String> warnings(JsonNode response) {
        List<String> warnings = new ArrayList<>();
        response.path("warnings").forEach(warning -> warnings.add(warning.asText()));
        return warnings;
    }

    private JsonNode tree(HasMetadata object) {
        return serialization.convertValue(object, JsonNode.class);
    }

    private static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode read(WebhookAnswer answer) {
        return readTree(answer.bodyText());
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + json, e);
        }
    }

    /** Collects the webhooks to test. Not thread-safe. */
    public static final class Builder {
        private final KubernetesSerialization serialization;
        private final Webhooks.Builder webhooks;

        private Builder(KubernetesSerialization serialization) {
            this.serialization = serialization;
            this.webhooks = Webhooks.builder(serialization);
        }

        public <T extends HasMetadata> Builder validator(Class<T> type, Validator<T> validator) {
            webhooks.validator(type, validator);
            return this;
        }

        public <T extends HasMetadata> Builder defaulter(Class<T> type, Defaulter<T> defaulter) {
            webhooks.defaulter(type, defaulter);
            return this;
        }

        public <H extends HasMetadata, S extends HasMetadata> Builder converter(Class<H> hub, Class<S> spoke,
                SpokeConverter<H, S> converter) {
            webhooks.converter(hub, spoke, converter);
            return this;
        }

        public WebhookTester build() {
            return new WebhookTester(webhooks.build(), serialization);
        }
    }

}
