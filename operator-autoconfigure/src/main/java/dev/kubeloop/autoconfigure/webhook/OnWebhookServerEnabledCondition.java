package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import dev.kubeloop.webhook.WebhookSettings;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code kubeloop.webhook.enabled} is not false. A value that is not a boolean fails startup,
 * naming the property, rather than switching admission off without a word.
 */
final class OnWebhookServerEnabledCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String property = WebhookSettings.ENABLED.property();
        Boolean enabled = BooleanConditionProperty.read(context.getEnvironment(), property,
                "(webhooks are served whenever the application has a validator, defaulter or converter)");
        return enabled == null || enabled ? ConditionOutcome.match(property + " is not false")
                : ConditionOutcome.noMatch(property + " is false");
    }
}
