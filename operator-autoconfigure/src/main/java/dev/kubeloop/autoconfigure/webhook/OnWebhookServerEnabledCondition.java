package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.OnBooleanPropertyCondition;
import dev.kubeloop.webhook.WebhookSettings;

/**
 * {@code kubeloop.webhook.enabled} is not false. A value that is not a boolean fails startup,
 * naming the property, rather than switching admission off without a word.
 */
final class OnWebhookServerEnabledCondition extends OnBooleanPropertyCondition {

    OnWebhookServerEnabledCondition() {
        super(WebhookSettings.ENABLED.property(), true,
                "(webhooks are served whenever the application has a validator, defaulter or converter)");
    }
}
