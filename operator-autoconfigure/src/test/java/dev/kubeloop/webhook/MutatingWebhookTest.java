package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Defaulter;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A defaulter behind a mutating webhook: the JSONPatch it answers with holds exactly the
 * defaulter's changes, applies to the object as the API server sent it, and leaves alone what the
 * Java class does not know or initializes itself.
 */
class MutatingWebhookTest {

    private static WebhookAnswer mutate(Defaulter<Shelf> defaulter, JsonNode object, String operation) {
        Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).defaulter(Shelf.class, defaulter).build();
        ObjectNode request = Reviews.admissionRequest(operation, "v2");
        request.set("object", object);
        return webhooks.handle("/mutate-kubeloop-dev-v2-shelf", Reviews.admission(request));
    }

    /** The object as the API server sent it: only what the user wrote, plus a field Shelf does not know. */
    private static ObjectNode raw() {
        ObjectNode shelf = Reviews.JSON.createObjectNode().put("apiVersion", "kubeloop.dev/v2").put("kind", "Shelf");
        shelf.putObject("metadata").put("name", "oak").put("namespace", "test");
        shelf.putObject("spec").put("label", "kitchen").put("addedByANewerVersion", "keep me");
        return shelf;
    }

    private static JsonNode patched(JsonNode raw, Consumer<Shelf> change) {
        WebhookAnswer answer = mutate((shelf, context) -> change.accept(shelf), raw, "CREATE");
        JsonNode response = Reviews.response(answer);
        assertThat(response.get("allowed").asBoolean()).isTrue();
        JsonNode patch = Reviews.patch(answer);
        if (!patch.isEmpty()) {
            assertThat(response.get("patchType").asText()).isEqualTo("JSONPatch");
        }
        return JsonPatch.apply(patch, raw);
    }

    @Test
    void aDefaultedFieldIsAddedAndNothingElseChanges() {
        ObjectNode raw = raw();
        WebhookAnswer answer = mutate((shelf, context) -> shelf.getSpec().setBooks(1), raw, "CREATE");

        assertThat(Reviews.patch(answer).toString()).isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/books\",\"value\":1}]");
        ObjectNode expected = raw.deepCopy();
        ((ObjectNode) expected.get("spec")).put("books", 1);
        assertThat(JsonPatch.apply(Reviews.patch(answer), raw)).isEqualTo(expected);
    }

    @Test
    void fieldsTheJavaClassDoesNotKnowSurviveTheDefaulting() {
        JsonNode result = patched(raw(), shelf -> shelf.getSpec().setLabel("pantry"));

        assertThat(result.at("/spec/addedByANewerVersion").asText()).isEqualTo("keep me");
        assertThat(result.at("/spec/label").asText()).isEqualTo("pantry");
    }

    @Test
    void aJavaInitializedFieldIsNotWrittenUnlessTheDefaulterChangesIt() {
        assertThat(patched(raw(), shelf -> shelf.getSpec().setBooks(2)).at("/spec").has("color")).isFalse();
        assertThat(patched(raw(), shelf -> shelf.getSpec().setColor("walnut")).at("/spec/color").asText())
                .isEqualTo("walnut");
    }

    @Test
    void noChangeMeansNoPatch() {
        WebhookAnswer answer = mutate((shelf, context) -> { }, raw(), "CREATE");

        assertThat(Reviews.response(answer).has("patch")).isFalse();
        assertThat(Reviews.response(answer).has("patchType")).isFalse();
    }

    @Test
    void aMemberTheRequestLacksIsAddedWholeBeforeWhatIsBelowIt() {
        ObjectNode raw = raw();
        raw.remove("spec");

        JsonNode result = patched(raw, shelf -> {
            assertThat(shelf.getSpec()).as("Shelf has no initSpec()").isNull();
            shelf.setSpec(new Shelf.Spec());
            shelf.getSpec().setLighting(new Shelf.Lighting());
            shelf.getSpec().getLighting().setLamp("warm");
        });

        assertThat(result.at("/spec/lighting/lamp").asText()).isEqualTo("warm");
        assertThat(result.at("/spec").has("books")).as("unset fields are not written as null").isFalse();
    }

    @Test
    void settingAFieldToNullRemovesIt() {
        JsonNode result = patched(raw(), shelf -> shelf.getSpec().setLabel(null));

        assertThat(result.at("/spec").has("label")).isFalse();
        assertThat(result.at("/spec/addedByANewerVersion").asText()).isEqualTo("keep me");
    }

    @Test
    void labelsAndAnnotationsCanBeDefaulted() {
        JsonNode result = patched(raw(), shelf -> shelf.getMetadata().getLabels().put("tier", "kitchen"));

        assertThat(result.at("/metadata/labels/tier").asText()).isEqualTo("kitchen");
    }

    @Test
    void anUpdateIsDefaultedToo() {
        WebhookAnswer answer = mutate((shelf, context) -> shelf.getSpec().setBooks(7), raw(), "UPDATE");

        assertThat(Reviews.patch(answer).toString()).contains("/spec/books");
    }

    @Test
    void aDeleteIsAllowedUntouched() {
        ObjectNode request = Reviews.admissionRequest("DELETE", "v2");
        request.set("oldObject", raw());
        WebhookAnswer answer = Webhooks.builder(Reviews.SERIALIZATION)
                .defaulter(Shelf.class, (shelf, context) -> shelf.getSpec().setBooks(9)).build()
                .handle("/mutate-kubeloop-dev-v2-shelf", Reviews.admission(request));

        assertThat(Reviews.response(answer).get("allowed").asBoolean()).isTrue();
        assertThat(Reviews.response(answer).has("patch")).isFalse();
    }

    @Test
    void removingTheFinalizerOfAnObjectBeingDeletedIsAllowedWithoutAskingTheDefaulter() {
        ObjectNode old = raw();
        ((ObjectNode) old.get("metadata")).put("deletionTimestamp", "2026-11-26T03:00:00Z").putArray("finalizers")
                .add("shelf.kubeloop.dev/finalizer");
        ObjectNode released = old.deepCopy();
        ((ObjectNode) released.get("metadata")).remove("finalizers");
        Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).defaulter(Shelf.class, (shelf, context) -> {
            throw new IllegalStateException("a defaulter that cannot read an old object");
        }).build();
        ObjectNode request = Reviews.admissionRequest("UPDATE", "v2");
        request.set("oldObject", old);
        request.set("object", released);

        WebhookAnswer answer = webhooks.handle("/mutate-kubeloop-dev-v2-shelf", Reviews.admission(request));

        assertThat(Reviews.response(answer).get("allowed").asBoolean()).isTrue();
        assertThat(Reviews.patch(answer)).isEmpty();
    }

    @Test
    void anObjectThatDoesNotReadAsTheJavaTypeIsLetThroughUnchangedForTheSchemaToAnswer() {
        ObjectNode unreadable = raw();
        ((ObjectNode) unreadable.get("spec")).put("books", "a dozen");
        java.util.List<Shelf> defaulted = new java.util.ArrayList<>();

        WebhookAnswer answer = mutate((shelf, context) -> defaulted.add(shelf), unreadable, "CREATE");

        assertThat(Reviews.response(answer).get("allowed").asBoolean()).as(Reviews.response(answer).toString())
                .isTrue();
        assertThat(Reviews.response(answer).has("patch")).isFalse();
        assertThat(defaulted).isEmpty();
    }

    @Test
    void aDefaulterThatThrowsDeniesWithItsMessage() {
        WebhookAnswer answer = mutate((shelf, context) -> {
            throw new IllegalArgumentException("no default for a shelf without label");
        }, raw(), "CREATE");

        JsonNode response = Reviews.response(answer);
        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/message").asText()).isEqualTo("no default for a shelf without label");
        assertThat(answer.userCodeFailure()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pathsWithSlashesAndTildesAreEscaped() {
        JsonNode result = patched(raw(), shelf -> shelf.getMetadata().getAnnotations().put("example.com/a~b", "x"));

        assertThat(result.at("/metadata/annotations").get("example.com/a~b").asText()).isEqualTo("x");
        assertThat(DefaultingPatch.format(DefaultingPatch.parse("/a~1b/c~0d"))).isEqualTo("/a~1b/c~0d");
    }
}
