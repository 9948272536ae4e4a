package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.SpokeConverter;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/**
 * A ConversionReview through the conversion webhook of Shelf (hub v2, spoke v1, {@code books} ↔
 * {@code bookCount}): both directions, every object of a review, and what is refused by name.
 */
class ConversionWebhookTest {

    private static final String PATH = "/convert-kubeloop-dev-shelf";

    static final SpokeConverter<Shelf, ShelfV1> CONVERTER = new SpokeConverter<>() {
        @Override
        public Shelf toHub(ShelfV1 spoke) {
            if ("boom".equals(spoke.getSpec().getLabel())) {
                throw new IllegalStateException("cannot convert label boom");
            }
            Shelf hub = new Shelf();
            hub.setMetadata(spoke.getMetadata());
            hub.setSpec(new Shelf.Spec());
            hub.getSpec().setBooks(spoke.getSpec().getBookCount());
            hub.getSpec().setLabel(spoke.getSpec().getLabel());
            return hub;
        }

        @Override
        public ShelfV1 fromHub(Shelf hub) {
            ShelfV1 spoke = new ShelfV1(); // metadata left empty: Kubeloop copies the source's
            spoke.setSpec(new ShelfV1.Spec());
            spoke.getSpec().setBookCount(hub.getSpec().getBooks());
            spoke.getSpec().setLabel(hub.getSpec().getLabel());
            return spoke;
        }
    };

    private final Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION)
            .converter(Shelf.class, ShelfV1.class, CONVERTER).build();

    private static JsonNode v1(String name, int bookCount) {
        ShelfV1 shelf = new ShelfV1();
        shelf.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("test").addToLabels("room", "hall")
                .withUid("uid-" + name).build());
        shelf.setSpec(new ShelfV1.Spec());
        shelf.getSpec().setBookCount(bookCount);
        return Reviews.tree(shelf);
    }

    private JsonNode convert(String desired, JsonNode... objects) {
        WebhookAnswer answer = webhooks.handle(PATH, Reviews.conversion(desired, objects));
        assertThat(answer.status()).isEqualTo(200);
        return Reviews.response(answer);
    }

    @Test
    void theOldVersionIsConvertedToTheHubWithItsMetadata() {
        JsonNode response = convert("kubeloop.dev/v2", v1("a", 4));

        assertThat(response.get("uid").asText()).isEqualTo("0f3c-conversion");
        assertThat(response.at("/result/status").asText()).isEqualTo("Success");
        JsonNode converted = response.at("/convertedObjects/0");
        assertThat(converted.get("apiVersion").asText()).isEqualTo("kubeloop.dev/v2");
        assertThat(converted.get("kind").asText()).isEqualTo("Shelf");
        assertThat(converted.at("/spec/books").asInt()).isEqualTo(4);
        assertThat(converted.at("/spec").has("bookCount")).isFalse();
        assertThat(converted.at("/metadata/uid").asText()).isEqualTo("uid-a");
        assertThat(converted.at("/metadata/labels/room").asText()).isEqualTo("hall");
    }

    @Test
    void theHubIsConvertedToTheOldVersionAndTheConverterMayLeaveMetadataToKubeloop() {
        Shelf hub = Shelf.named("b", 6);
        hub.getMetadata().setUid("uid-b");

        JsonNode converted = convert("kubeloop.dev/v1", Reviews.tree(hub)).at("/convertedObjects/0");

        assertThat(converted.get("apiVersion").asText()).isEqualTo("kubeloop.dev/v1");
        assertThat(converted.at("/spec/bookCount").asInt()).isEqualTo(6);
        assertThat(converted.at("/metadata/uid").asText()).isEqualTo("uid-b");
    }

    @Test
    void everyObjectIsConvertedInOrderAndOnesAlreadyInTheDesiredVersionPassUnchanged() {
        ObjectNode already = (ObjectNode) Reviews.tree(Shelf.named("c", 1));
        already.put("fieldOnlyTheServerKnows", true);

        JsonNode objects = convert("kubeloop.dev/v2", v1("a", 1), already, v1("d", 3)).get("convertedObjects");

        assertThat(objects).hasSize(3);
        assertThat(objects.get(0).at("/metadata/name").asText()).isEqualTo("a");
        assertThat(objects.get(1)).isEqualTo(already);
        assertThat(objects.get(2).at("/spec/books").asInt()).isEqualTo(3);
    }

    @Test
    void anUnknownVersionFailsTheReviewNamingTheServedOnes() {
        JsonNode response = convert("kubeloop.dev/v3", v1("a", 1));

        assertThat(response.at("/result/status").asText()).isEqualTo("Failure");
        assertThat(response.at("/result/message").asText()).isEqualTo("the desiredAPIVersion has apiVersion "
                + "'kubeloop.dev/v3', this webhook (" + PATH + ") converts Shelf between kubeloop.dev/v2, kubeloop.dev/v1");
        assertThat(response.path("convertedObjects")).isEmpty();
    }

    @Test
    void anObjectOfAnotherKindOrVersionFailsTheReview() {
        ObjectNode other = (ObjectNode) v1("a", 1);
        other.put("kind", "Cupboard");
        assertThat(convert("kubeloop.dev/v2", other).at("/result/message").asText())
                .isEqualTo("this webhook (" + PATH + ") converts kubeloop.dev Shelf, objects[0] is a Cupboard");

        ObjectNode alpha = (ObjectNode) v1("a", 1);
        alpha.put("apiVersion", "kubeloop.dev/v1alpha9");
        assertThat(convert("kubeloop.dev/v2", alpha).at("/result/message").asText())
                .startsWith("objects[0] has apiVersion 'kubeloop.dev/v1alpha9', this webhook");
    }

    @Test
    void aConverterThatThrowsFailsTheReviewWithItsMessage() {
        ObjectNode boom = (ObjectNode) v1("a", 1);
        ((ObjectNode) boom.get("spec")).put("label", "boom");

        WebhookAnswer answer = webhooks.handle(PATH, Reviews.conversion("kubeloop.dev/v2", boom));

        JsonNode response = Reviews.response(answer);
        assertThat(response.at("/result/status").asText()).isEqualTo("Failure");
        assertThat(response.at("/result/message").asText())
                .isEqualTo("converting Shelf test/a (kubeloop.dev/v1) to kubeloop.dev/v2 failed: cannot convert label boom");
        assertThat(answer.userCodeFailure()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anObjectThatDoesNotReadFailsTheReviewNamingTheField() {
        ObjectNode bad = (ObjectNode) v1("a", 1);
        ((ObjectNode) bad.get("spec")).put("bookCount", "many");

        assertThat(convert("kubeloop.dev/v2", bad).at("/result/message").asText())
                .isEqualTo("objects[0] (kubeloop.dev/v1) does not read as ShelfV1: spec.bookCount must be a whole number");
    }

    @Test
    void bodiesThatAreNoConversionReviewAreA400() {
        for (String body : new String[] {"nope", "{\"apiVersion\":\"apiextensions.k8s.io/v1beta1\",\"kind\":"
                + "\"ConversionReview\",\"request\":{\"uid\":\"x\"}}", "{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"ConversionReview\",\"request\":{}}"}) {
            WebhookAnswer answer = webhooks.handle(PATH, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(answer.status()).as(body).isEqualTo(400);
            assertThat(Reviews.response(answer).at("/result/status").asText()).isEqualTo("Failure");
        }
        WebhookAnswer noObjects = webhooks.handle(PATH, ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                + "\"ConversionReview\",\"request\":{\"uid\":\"x\",\"desiredAPIVersion\":\"kubeloop.dev/v1\"}}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(noObjects.status()).isEqualTo(200);
        assertThat(Reviews.response(noObjects).at("/result/message").asText())
                .isEqualTo("the ConversionReview's request has no list of objects");
    }

    @Test
    void convertersMustShareOneHubPerKindAndConvertAnotherVersion() {
        assertThatThrownBy(() -> Webhooks.builder(Reviews.SERIALIZATION).converter(Shelf.class, Shelf.class,
                new SpokeConverter<Shelf, Shelf>() {
                    @Override
                    public Shelf toHub(Shelf spoke) {
                        return spoke;
                    }

                    @Override
                    public Shelf fromHub(Shelf hub) {
                        return hub;
                    }
                })).hasMessageContaining("converts kubeloop.dev/v2 Shelf to itself");
        assertThatThrownBy(() -> Webhooks.builder(Reviews.SERIALIZATION).converter(Shelf.class, ShelfV1.class, CONVERTER)
                .converter(Shelf.class, ShelfV1.class, CONVERTER)).hasMessageContaining("Two converters for "
                        + "kubeloop.dev/v1 Shelf");
        assertThatThrownBy(() -> Webhooks.builder(Reviews.SERIALIZATION)
                .validator(Shelf.class, new dev.kubeloop.api.webhook.Validator<>() { })
                .validator(Shelf.class, new dev.kubeloop.api.webhook.Validator<>() { }))
                .hasMessageContaining("Two validators for kubeloop.dev/v2 Shelf");
    }
}
