package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Kubeloop is on unless {@code kubeloop.enabled} is false. A value that is not a boolean fails
 * startup, naming the property: Spring Boot's {@code @ConditionalOnBooleanProperty} compares the
 * text with "true", so a typo such as {@code ture} would switch the whole operator off without a
 * word while its pod looks healthy. Accepts what Spring converts to a boolean (true/false, on/off,
 * yes/no, 1/0, any case), as the bound {@link KubeloopProperties#isEnabled()} does.
 */
final class OnKubeloopEnabledCondition extends SpringBootCondition {

    static final String PROPERTY = "kubeloop.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        Boolean enabled;
        try {
            enabled = environment.getProperty(PROPERTY, Boolean.class);
        } catch (ConversionException e) {
            throw new KubeloopConfigurationException("Property " + PROPERTY + " has an invalid value '"
                    + environment.getProperty(PROPERTY) + "': it must be true or false.",
                    "Set " + PROPERTY + " to true or false, or remove it (Kubeloop is on by default).", e);
        }
        return enabled == null || enabled ? ConditionOutcome.match(PROPERTY + " is not false")
                : ConditionOutcome.noMatch(PROPERTY + " is false");
    }
}
