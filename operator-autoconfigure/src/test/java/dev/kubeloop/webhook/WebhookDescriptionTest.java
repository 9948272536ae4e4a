package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One description for chart, kit and dev registration: names by plural, DELETE only when asked. */
class WebhookDescriptionTest {

    static final class ShelfRules implements Validator<Shelf> {
        @Override
        public Admission validateCreate(Shelf shelf, AdmissionContext context) {
            return Admission.allowed();
        }
    }

    static final class KeepFullShelves implements Validator<Shelf> {
        @Override
        public Admission validateCreate(Shelf shelf, AdmissionContext context) {
            return Admission.allowed();
        }

        @Override
        public Admission validateDelete(Shelf shelf, AdmissionContext context) {
            return Admission.allowed();
        }
    }

    @Test
    void aValidatorIsCalledForDeletesOnlyWhenItValidatesThem() {
        List<WebhookDescription> plain = WebhookDescription.of(Webhooks.builder(Reviews.SERIALIZATION)
                .validator(Shelf.class, new ShelfRules()).defaulter(Shelf.class, (shelf, context) -> { }).build());
        assertThat(plain).extracting(WebhookDescription::name, WebhookDescription::path, WebhookDescription::operations,
                WebhookDescription::scope).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("validate.shelves.kubeloop.dev", "/validate-kubeloop-dev-v2-shelf",
                                List.of("CREATE", "UPDATE"), "Namespaced"),
                        org.assertj.core.groups.Tuple.tuple("default.shelves.kubeloop.dev", "/mutate-kubeloop-dev-v2-shelf",
                                List.of("CREATE", "UPDATE"), "Namespaced"));
        assertThat(WebhookDescription.of(Webhooks.builder(Reviews.SERIALIZATION)
                .validator(Shelf.class, new KeepFullShelves()).build())).singleElement()
                .extracting(WebhookDescription::operations).isEqualTo(List.of("CREATE", "UPDATE", "DELETE"));
    }

    @Test
    void theDevRegistrationAndTheKitUseTheDescription() {
        WebhookConfigurations configurations = WebhookConfigurations.of(Webhooks.builder(Reviews.SERIALIZATION)
                .validator(Shelf.class, new ShelfRules()).build(), new WebhookConfigurations.Target("t",
                        java.util.Map.of(), "https://127.0.0.1:1", "", java.util.Map.of(), "Fail", 5));
        assertThat(configurations.validating().orElseThrow().getWebhooks()).singleElement().satisfies(webhook -> {
            assertThat(webhook.getName()).isEqualTo("validate.shelves.kubeloop.dev");
            assertThat(webhook.getRules()).singleElement().satisfies(rule -> {
                assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE");
                assertThat(rule.getResources()).containsExactly("shelves");
                assertThat(rule.getScope()).isEqualTo("Namespaced");
            });
        });
    }
}
