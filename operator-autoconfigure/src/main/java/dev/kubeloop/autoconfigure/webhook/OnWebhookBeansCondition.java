package dev.kubeloop.autoconfigure.webhook;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The application declares a validator, defaulter or converter. Evaluated when beans are
 * registered, after the application's own configuration.
 */
final class OnWebhookBeansCondition extends SpringBootCondition implements ConfigurationCondition {

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        if (beans == null || !WebhookBeans.present(beans)) {
            return ConditionOutcome.noMatch("no Validator, Defaulter or SpokeConverter bean");
        }
        return ConditionOutcome.match("a Validator, Defaulter or SpokeConverter bean");
    }
}
