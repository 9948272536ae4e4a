package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.OnBooleanPropertyCondition;
import dev.kubeloop.webhook.WebhookSettings;

/**
 * {@code kubeloop.webhook.dev-registration.enabled} is true. A value that is not a boolean fails
 * startup, naming the property, rather than leaving a developer wondering why the cluster never
 * calls the webhooks.
 */
final class OnWebhookDevRegistrationCondition extends OnBooleanPropertyCondition {

    OnWebhookDevRegistrationCondition() {
        super(WebhookSettings.DEV_REGISTRATION.property(), false,
                "(off by default: only for development against a cluster)");
    }
}
