package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.FieldError;
import dev.kubeloop.api.webhook.Operation;
import dev.kubeloop.api.webhook.Validator;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An AdmissionReview through a validating webhook, as the API server sends it: what the validator
 * gets for each operation, how its answer is written, and how every kind of bad input is answered
 * (with the reason, never a stack trace).
 */
class ValidatingWebhookTest {

    private final List<String> calls = new ArrayList<>();

    /** At most 10 books; never fewer books than before; deleting a shelf is refused (an explicit opt-in). */
    private final Validator<Shelf> validator = new Validator<>() {
        @Override
        public Admission validateCreate(Shelf shelf, AdmissionContext context) {
            calls.add("create " + shelf.getSpec().getBooks() + (context.dryRun() ? " dry-run" : "") + " by "
                    + context.userName());
            if (shelf.getSpec().getBooks() > 10) {
                return Admission.denied("spec.books must be at most 10").withWarning("shelves bend");
            }
            if ("boom".equals(shelf.getSpec().getLabel())) {
                throw new IllegalStateException("label boom exploded");
            }
            if ("gold".equals(shelf.getSpec().getLabel())) {
                return Admission.invalid(FieldError.notSupported("spec.label", "gold", "oak", "pine"));
            }
            if ("".equals(shelf.getSpec().getLabel())) {
                return Admission.invalid(FieldError.invalid("spec.books", shelf.getSpec().getBooks(), "must be even"),
                        FieldError.required("spec.label", "may not be empty")).withWarning("shelves bend");
            }
            return Admission.allowed().withWarning("a warning for kubectl");
        }

        @Override
        public Admission validateUpdate(Shelf oldShelf, Shelf shelf, AdmissionContext context) {
            calls.add("update " + oldShelf.getSpec().getBooks() + " -> " + shelf.getSpec().getBooks());
            if (shelf.getSpec().getBooks() > 10) {
                return Admission.denied("spec.books must be at most 10");
            }
            return shelf.getSpec().getBooks() < oldShelf.getSpec().getBooks()
                    ? Admission.denied("books can only be added") : Admission.allowed();
        }

        @Override
        public Admission validateDelete(Shelf shelf, AdmissionContext context) {
            calls.add("delete " + shelf.getSpec().getBooks() + " " + context.operation());
            return Admission.denied("empty the shelf first");
        }
    };

    private final Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).validator(Shelf.class, validator).build();
    private final String path = "/validate-kubeloop-dev-v2-shelf";

    private WebhookAnswer send(ObjectNode request) {
        return webhooks.handle(path, Reviews.admission(request));
    }

    private static ObjectNode create(Shelf shelf) {
        ObjectNode request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(shelf));
        return request;
    }

    @Test
    void thePathIsDerivedFromGroupVersionAndKindAsControllerRuntimeDoes() {
        assertThat(webhooks.all()).singleElement().satisfies(webhook -> {
            assertThat(webhook.path()).isEqualTo(path);
            assertThat(webhook.type()).isEqualTo(WebhookType.VALIDATING);
        });
    }

    @Test
    void anAllowedCreateEchoesTheUidAndCarriesTheWarnings() {
        WebhookAnswer answer = send(create(Shelf.named("oak", 3)));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.bodyText()).contains("\"apiVersion\":\"admission.k8s.io/v1\"", "\"kind\":\"AdmissionReview\"");
        JsonNode response = Reviews.response(answer);
        assertThat(response.get("uid").asText()).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
        assertThat(response.get("allowed").asBoolean()).isTrue();
        assertThat(response.get("warnings")).extracting(JsonNode::asText).containsExactly("a warning for kubectl");
        assertThat(calls).containsExactly("create 3 by alice");
    }

    @Test
    void aDenialIsForbiddenWithTheValidatorsMessageAndWarnings() {
        JsonNode response = Reviews.response(send(create(Shelf.named("oak", 11))));

        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(403);
        assertThat(response.at("/status/reason").asText()).isEqualTo("Forbidden");
        assertThat(response.at("/status/message").asText()).isEqualTo("spec.books must be at most 10");
        assertThat(response.get("warnings")).extracting(JsonNode::asText).containsExactly("shelves bend");
    }

    @Test
    void aDenialWithOneFieldErrorIsInvalidAsTheApiServerAnswersAnInvalidObject() {
        Shelf shelf = Shelf.named("oak", 3);
        shelf.getSpec().setLabel("gold");

        JsonNode response = Reviews.response(send(create(shelf)));

        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(422);
        assertThat(response.at("/status/reason").asText()).isEqualTo("Invalid");
        assertThat(response.at("/status/status").asText()).isEqualTo("Failure");
        assertThat(response.at("/status/message").asText()).isEqualTo(
                "Shelf.kubeloop.dev \"oak\" is invalid: spec.label: Unsupported value: \"gold\": supported values: \"oak\", \"pine\"");
        assertThat(response.at("/status/details/name").asText()).isEqualTo("oak");
        assertThat(response.at("/status/details/group").asText()).isEqualTo("kubeloop.dev");
        assertThat(response.at("/status/details/kind").asText()).isEqualTo("Shelf");
        assertThat(response.at("/status/details/causes")).singleElement().satisfies(cause -> {
            assertThat(cause.get("reason").asText()).isEqualTo("FieldValueNotSupported");
            assertThat(cause.get("field").asText()).isEqualTo("spec.label");
            assertThat(cause.get("message").asText())
                    .isEqualTo("Unsupported value: \"gold\": supported values: \"oak\", \"pine\"");
        });
        assertThat(response.has("warnings")).isFalse();
    }

    @Test
    void aDenialWithSeveralFieldErrorsListsThemInBracketsAndShowsAValueOnlyWhereGiven() {
        Shelf shelf = Shelf.named("oak", 3);
        shelf.getSpec().setLabel("");

        JsonNode response = Reviews.response(send(create(shelf)));

        assertThat(response.at("/status/code").asInt()).isEqualTo(422);
        assertThat(response.at("/status/message").asText()).isEqualTo("Shelf.kubeloop.dev \"oak\" is invalid: "
                + "[spec.books: Invalid value: 3: must be even, spec.label: Required value: may not be empty]");
        JsonNode causes = response.at("/status/details/causes");
        assertThat(causes).hasSize(2);
        assertThat(causes.get(0).toString()).isEqualTo(
                "{\"field\":\"spec.books\",\"message\":\"Invalid value: 3: must be even\",\"reason\":\"FieldValueInvalid\"}");
        assertThat(causes.get(1).toString()).isEqualTo(
                "{\"field\":\"spec.label\",\"message\":\"Required value: may not be empty\",\"reason\":\"FieldValueRequired\"}");
        assertThat(response.get("warnings")).extracting(JsonNode::asText).containsExactly("shelves bend");
    }

    @Test
    void anUpdateGetsTheOldAndTheNewObject() {
        ObjectNode request = Reviews.admissionRequest("UPDATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", 2)));
        request.set("oldObject", Reviews.tree(Shelf.named("oak", 5)));

        JsonNode response = Reviews.response(send(request));

        assertThat(calls).containsExactly("update 5 -> 2");
        assertThat(response.at("/status/message").asText()).isEqualTo("books can only be added");
    }

    @Test
    void aDeleteGetsTheOldObject() {
        ObjectNode request = Reviews.admissionRequest("DELETE", "v2");
        request.set("oldObject", Reviews.tree(Shelf.named("oak", 5)));

        JsonNode response = Reviews.response(send(request));

        assertThat(calls).containsExactly("delete 5 DELETE");
        assertThat(response.get("allowed").asBoolean()).isFalse();
    }

    /** A shelf stored before the 10-book rule (or while the webhook was off), being deleted, with two finalizers. */
    private static ObjectNode beingDeleted(int books) {
        Shelf shelf = Shelf.named("oak", books);
        shelf.getMetadata().setDeletionTimestamp("2026-11-26T03:00:00Z");
        shelf.getMetadata().setFinalizers(List.of("shelf.kubeloop.dev/finalizer", "backup.example.com/finalizer"));
        shelf.getMetadata().setResourceVersion("41");
        shelf.getMetadata().setGeneration(2L);
        return (ObjectNode) Reviews.tree(shelf);
    }

    private WebhookAnswer update(JsonNode oldObject, JsonNode object) {
        ObjectNode request = Reviews.admissionRequest("UPDATE", "v2");
        request.set("oldObject", oldObject);
        request.set("object", object);
        return send(request);
    }

    @Test
    void removingAFinalizerOfAnObjectBeingDeletedIsAllowedWithoutAskingTheValidator() {
        ObjectNode old = beingDeleted(11);
        ObjectNode released = old.deepCopy();
        ((ObjectNode) released.get("metadata")).putArray("finalizers").add("backup.example.com/finalizer");
        ((ObjectNode) released.get("metadata")).put("resourceVersion", "42").putArray("managedFields").addObject()
                .put("manager", "kubectl-edit");
        released.putObject("status").put("phase", "Deleting");

        JsonNode response = Reviews.response(update(old, released));

        assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
        assertThat(calls).isEmpty();
    }

    @Test
    void removingTheLastFinalizerAndOwnerReferencesOfAnObjectBeingDeletedIsAllowed() {
        ObjectNode old = beingDeleted(11);
        ((ObjectNode) old.get("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "v1")
                .put("kind", "ConfigMap").put("name", "owner").put("uid", "u-1");
        ObjectNode released = old.deepCopy();
        ((ObjectNode) released.get("metadata")).remove(List.of("finalizers", "ownerReferences"));

        assertThat(Reviews.response(update(old, released)).get("allowed").asBoolean()).isTrue();
        assertThat(calls).isEmpty();
    }

    @Test
    void anUpdateOfAnObjectBeingDeletedThatChangesMoreThanItsFinalizersIsValidated() {
        ObjectNode old = beingDeleted(11);
        ObjectNode specChanged = old.deepCopy();
        ((ObjectNode) specChanged.get("metadata")).putArray("finalizers");
        ((ObjectNode) specChanged.get("spec")).put("books", 12);
        ObjectNode labelled = old.deepCopy();
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("room", "kitchen");
        ObjectNode finalizerAdded = old.deepCopy();
        ((ArrayNode) finalizerAdded.at("/metadata/finalizers")).add("another.example.com/finalizer");

        assertThat(Reviews.response(update(old, specChanged)).at("/status/message").asText())
                .isEqualTo("spec.books must be at most 10");
        assertThat(Reviews.response(update(old, labelled)).get("allowed").asBoolean()).isFalse();
        assertThat(Reviews.response(update(old, finalizerAdded)).get("allowed").asBoolean()).isFalse();
        assertThat(calls).containsExactly("update 11 -> 12", "update 11 -> 11", "update 11 -> 11");
    }

    @Test
    void removingAFinalizerOfAnObjectNotBeingDeletedIsValidated() {
        ObjectNode old = beingDeleted(11);
        ((ObjectNode) old.get("metadata")).remove("deletionTimestamp");
        ObjectNode released = old.deepCopy();
        ((ObjectNode) released.get("metadata")).remove("finalizers");

        assertThat(Reviews.response(update(old, released)).get("allowed").asBoolean()).isFalse();
        assertThat(calls).containsExactly("update 11 -> 11");
    }

    @Test
    void addingAFinalizerToAnObjectInvalidUnderTodaysRulesIsAllowedWithoutAskingTheValidator() {
        ObjectNode old = beingDeleted(11);
        ((ObjectNode) old.get("metadata")).remove(List.of("deletionTimestamp", "finalizers"));
        ObjectNode withFinalizer = old.deepCopy();
        ((ObjectNode) withFinalizer.get("metadata")).putArray("finalizers").add("shelf.kubeloop.dev/finalizer");
        ((ObjectNode) withFinalizer.get("metadata")).put("resourceVersion", "42");

        JsonNode response = Reviews.response(update(old, withFinalizer));

        assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
        assertThat(calls).isEmpty();
    }

    @Test
    void addingAFinalizerWithAnyOtherChangeOrInPlaceOfAnotherIsValidated() {
        ObjectNode old = beingDeleted(11);
        ((ObjectNode) old.get("metadata")).remove("deletionTimestamp");
        ObjectNode withSpecChange = old.deepCopy();
        ((ArrayNode) withSpecChange.at("/metadata/finalizers")).add("mine.example.com/finalizer");
        ((ObjectNode) withSpecChange.get("spec")).put("books", 12);
        ObjectNode swapped = old.deepCopy();
        ((ObjectNode) swapped.get("metadata")).putArray("finalizers").add("mine.example.com/finalizer");
        ObjectNode withOwner = old.deepCopy();
        ((ArrayNode) withOwner.at("/metadata/finalizers")).add("mine.example.com/finalizer");
        ((ObjectNode) withOwner.get("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "v1")
                .put("kind", "ConfigMap").put("name", "owner").put("uid", "u-1");

        assertThat(Reviews.response(update(old, withSpecChange)).get("allowed").asBoolean()).isFalse();
        assertThat(Reviews.response(update(old, swapped)).get("allowed").asBoolean()).isFalse();
        assertThat(Reviews.response(update(old, withOwner)).get("allowed").asBoolean()).isFalse();
        assertThat(calls).hasSize(3);
    }

    @Test
    void anObjectOfAnotherKindThanTheRequestsIsDeniedNamingBoth() {
        ObjectNode request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder()
                .withNewMetadata().withName("oak").withNamespace("test").endMetadata().build()));

        JsonNode response = Reviews.response(send(request));

        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(400);
        assertThat(response.at("/status/message").asText()).isEqualTo("request.object is apps/v1 Deployment, but "
                + "request.kind is kubeloop.dev/v2 Shelf");
        assertThat(calls).isEmpty();
    }

    @Test
    void anOldObjectOfAnotherKindOrVersionOrWithoutAKindIsDenied() {
        ObjectNode request = Reviews.admissionRequest("UPDATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", 1)));
        ObjectNode oldObject = (ObjectNode) Reviews.tree(Shelf.named("oak", 1));
        request.set("oldObject", oldObject.put("apiVersion", "kubeloop.dev/v1"));
        String otherVersion = Reviews.response(send(request)).at("/status/message").asText();
        oldObject.remove(List.of("apiVersion", "kind"));
        String noKind = Reviews.response(send(request)).at("/status/message").asText();

        assertThat(otherVersion).isEqualTo("request.oldObject is kubeloop.dev/v1 Shelf, but request.kind is "
                + "kubeloop.dev/v2 Shelf");
        assertThat(noKind).isEqualTo("request.oldObject has no apiVersion and kind, but request.kind is "
                + "kubeloop.dev/v2 Shelf");
        assertThat(calls).isEmpty();
    }

    @Test
    void theValidatorSeesADryRun() {
        ObjectNode request = create(Shelf.named("oak", 1));
        request.put("dryRun", true);

        send(request);

        assertThat(calls).containsExactly("create 1 dry-run by alice");
    }

    @Test
    void aValidatorThatThrowsDeniesWithItsMessageAndIsReported() {
        Shelf shelf = Shelf.named("oak", 1);
        shelf.getSpec().setLabel("boom");

        WebhookAnswer answer = send(create(shelf));

        assertThat(answer.status()).isEqualTo(200);
        JsonNode response = Reviews.response(answer);
        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(500);
        assertThat(response.at("/status/message").asText()).isEqualTo("label boom exploded");
        assertThat(answer.userCodeFailure()).isInstanceOf(IllegalStateException.class);
        assertThat(answer.bodyText()).doesNotContain("at dev.kubeloop", "Exception");
    }

    @Test
    void aRequestForAnotherKindIsDeniedNamingWhatWasExpected() {
        ObjectNode request = create(Shelf.named("oak", 1));
        request.putObject("kind").put("group", "apps").put("version", "v1").put("kind", "Deployment");

        JsonNode response = Reviews.response(send(request));

        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(400);
        assertThat(response.at("/status/message").asText()).isEqualTo("this webhook (" + path
                + ") serves kubeloop.dev/v2 Shelf, the request is for apps/v1 Deployment");
        assertThat(calls).isEmpty();
    }

    @Test
    void aRequestForAnotherVersionIsDeniedWithTheFix() {
        ObjectNode request = create(Shelf.named("oak", 1));
        request.putObject("kind").put("group", "kubeloop.dev").put("version", "v1").put("kind", "Shelf");

        String message = Reviews.response(send(request)).at("/status/message").asText();

        assertThat(message).contains("serves kubeloop.dev/v2 Shelf, the request is for kubeloop.dev/v1 Shelf",
                "matchPolicy Equivalent");
    }

    @Test
    void anObjectThatDoesNotReadIsDeniedNamingTheFieldButNotTheValue() {
        ObjectNode request = create(Shelf.named("oak", 1));
        ((ObjectNode) request.get("object").get("spec")).put("books", "s3cr3t-not-a-number");

        WebhookAnswer answer = send(request);

        JsonNode response = Reviews.response(answer);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(response.get("uid").asText()).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
        assertThat(response.at("/status/code").asInt()).isEqualTo(400);
        assertThat(response.at("/status/message").asText())
                .isEqualTo("an object does not read as Shelf: spec.books must be a whole number");
        assertThat(answer.bodyText()).doesNotContain("s3cr3t");
    }

    /**
     * The same object once an informer reads Shelves: the kind is then registered with the client's
     * serialization, which the webhooks share, so fabric8 would read the review's object as a Shelf
     * and fail the whole review on the field; the answer must stay the validator's denial.
     */
    @Test
    void anObjectThatDoesNotReadIsDeniedTheSameWayWhenItsKindIsRegistered() {
        KubernetesSerialization registered = new KubernetesSerialization(
                new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true);
        registered.registerKubernetesResource(Shelf.class);
        Webhooks informed = Webhooks.builder(registered).validator(Shelf.class, validator).build();
        ObjectNode request = create(Shelf.named("oak", 1));
        ((ObjectNode) request.get("object").get("spec")).put("books", "s3cr3t-not-a-number");

        WebhookAnswer answer = informed.handle(path, Reviews.admission(request));

        JsonNode response = Reviews.response(answer);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(response.at("/status/code").asInt()).isEqualTo(400);
        assertThat(response.at("/status/message").asText())
                .isEqualTo("an object does not read as Shelf: spec.books must be a whole number");
        assertThat(answer.bodyText()).doesNotContain("s3cr3t");
    }

    @Test
    void aCreateWithoutAnObjectIsDenied() {
        assertThat(Reviews.response(send(Reviews.admissionRequest("CREATE", "v2"))).at("/status/message").asText())
                .isEqualTo("a CREATE request must carry an object");
    }

    @Test
    void bodiesThatAreNoAdmissionReviewAreA400WithTheReason() {
        assertThat(badRequest("not json at all")).startsWith("the body is not JSON (");
        assertThat(badRequest("[1,2]")).isEqualTo("the body is not a JSON object");
        assertThat(badRequest("{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\"}"))
                .isEqualTo("expected an admission.k8s.io/v1 AdmissionReview, got admission.k8s.io/v1beta1 "
                        + "AdmissionReview (list only v1 in the webhook configuration's admissionReviewVersions)");
        assertThat(badRequest("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\"}"))
                .isEqualTo("expected an admission.k8s.io/v1 AdmissionReview, got apiextensions.k8s.io/v1 "
                        + "ConversionReview");
        assertThat(badRequest("{}")).isEqualTo("expected an admission.k8s.io/v1 AdmissionReview, got no apiVersion "
                + "and kind");
        assertThat(badRequest("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}"))
                .isEqualTo("the AdmissionReview has no request");
        assertThat(badRequest("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{}}"))
                .isEqualTo("the AdmissionReview's request has no uid");
        assertThat(badRequest("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"request\":{\"uid\":\"u\",\"operation\":\"PATCH\"}}"))
                .isEqualTo("the request's operation 'PATCH' is none of CREATE, UPDATE, DELETE, CONNECT");
        assertThat(badRequest("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"} {}"))
                .startsWith("the body is not JSON");
        assertThat(calls).isEmpty();
    }

    @Test
    void aPathNoWebhookServesIsA404ListingTheServedOnes() {
        WebhookAnswer answer = webhooks.handle("/validate-apps-v1-deployment", new byte[0]);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.bodyText()).contains("No webhook at /validate-apps-v1-deployment", path);
    }

    private String badRequest(String body) {
        WebhookAnswer answer = webhooks.handle(path, body.getBytes(StandardCharsets.UTF_8));
        assertThat(answer.status()).as(body).isEqualTo(400);
        JsonNode response = Reviews.response(answer);
        assertThat(response.get("allowed").asBoolean()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(400);
        assertThat(answer.userCodeFailure()).isNull();
        return response.at("/status/message").asText();
    }

    @Test
    void operationsAreKubernetesNames() {
        assertThat(Operation.values()).extracting(Enum::name).containsExactly("CREATE", "UPDATE", "DELETE", "CONNECT");
    }
}
