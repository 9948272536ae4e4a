package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.OnBooleanPropertyCondition;
import dev.kubeloop.autoconfigure.SwitchCondition;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.WebhookSettings;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.core.env.Environment;

/**
 * {@code kubeloop.webhook.dev-registration.enabled} is true, and then the webhook server must be on.
 * The switch is the one thing a developer sets: with {@code kubeloop.webhook.enabled=false} (what a
 * generated project had) there is nothing to register, and a plain non-match would leave the cluster
 * never calling the webhooks without a word, so start-up fails naming both properties. A value that
 * is not a boolean fails start-up naming the property. Stateless.
 */
final class OnWebhookDevRegistrationCondition extends SwitchCondition {

    private static final String SWITCH = WebhookSettings.DEV_REGISTRATION.property();
    private static final String SERVER = WebhookSettings.ENABLED.property();

    private final OnBooleanPropertyCondition registration = new Switch();
    private final OnBooleanPropertyCondition server = new OnWebhookServerEnabledCondition();

    @Override
    public ConditionOutcome decide(Environment environment) {
        if (!registration.isOn(environment)) {
            return ConditionOutcome.noMatch(SWITCH + " is not true");
        }
        if (!server.isOn(environment)) {
            throw new KubeloopConfigurationException(SWITCH + "=true registers this process's webhooks with the "
                    + "cluster, and " + SERVER + "=false switches off the server that would answer them: nothing "
                    + "would be registered.", "Let the server follow the switch: " + SERVER + ": ${" + SWITCH
                            + ":false} in application.yaml (as generated projects and the sample have it), or remove "
                            + SERVER + "=false (the server is on by default); or set " + SWITCH + " to false.");
        }
        return ConditionOutcome.match(SWITCH + " is true and " + SERVER + " is not false");
    }

    /** The switch alone, read so that a value that is not a boolean names the property. */
    private static final class Switch extends OnBooleanPropertyCondition {

        Switch() {
            super(SWITCH, false, "(off by default: only for development against a cluster)");
        }
    }
}
