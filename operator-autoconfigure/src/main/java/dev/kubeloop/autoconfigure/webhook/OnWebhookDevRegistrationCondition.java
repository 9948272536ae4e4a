package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import dev.kubeloop.webhook.WebhookSettings;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code kubeloop.webhook.dev-registration.enabled} is true. A value that is not a boolean fails
 * startup, naming the property, rather than leaving a developer wondering why the cluster never
 * calls the webhooks.
 */
final class OnWebhookDevRegistrationCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String property = WebhookSettings.DEV_REGISTRATION.property();
        Boolean enabled = BooleanConditionProperty.read(context.getEnvironment(), property,
                "(off by default: only for development against a cluster)");
        return enabled != null && enabled ? ConditionOutcome.match(property + " is true")
                : ConditionOutcome.noMatch(property + " is not true");
    }
}
