package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorsTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "app=web", "app==web", "app!=web", "app", "!app", "app=", "tier in (web,api)", "tier notin (db)",
        "tier in (web, )", "app.kubernetes.io/name=website", "replicas>2", "replicas<10",
        "app=web,tier!=cache,env in (prod,staging),!canary", "  app = web ,  tier  "
    })
    void acceptsTheApiServersSyntax(String selector) {
        assertThat(LabelSelectors.validate(selector)).isEqualTo(selector.trim());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void blankMeansEverything(String selector) {
        assertThat(LabelSelectors.validate(selector)).isEmpty();
        assertThat(LabelSelectors.validate(null)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "app=web,              | expected a label key but the selector ended",
        "=web                  | expected a label key but found '='",
        "app=we b              | expected ',' but found 'b'",
        "tier in (web          | expected ',' but the selector ended",
        "tier in web           | expected '(' but found 'web'",
        "app=-web              | '-web' is not a valid label value",
        "-app=web              | '-app' is not a valid label key",
        "Example.COM/app=web   | label key prefix 'Example.COM' is not a DNS subdomain",
        "replicas>two          | 'two' is not an integer",
        "app web               | expected an operator",
        "!app=web              | expected ',' but found '='"
    })
    void rejectsMistakesNamingThePosition(String selector, String problem) {
        assertThatIllegalArgumentException().isThrownBy(() -> LabelSelectors.validate(selector))
                .withMessageContaining("invalid label selector '" + selector.trim() + "' at position")
                .withMessageContaining(problem.trim());
    }
}
