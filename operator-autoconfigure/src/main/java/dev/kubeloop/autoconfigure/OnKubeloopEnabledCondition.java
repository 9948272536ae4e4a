package dev.kubeloop.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Kubeloop is on unless {@code kubeloop.enabled} is false. A value that is not a boolean fails
 * startup, naming the property: Spring Boot's {@code @ConditionalOnBooleanProperty} compares the
 * text with "true", so a typo such as {@code ture} would switch the whole operator off without a
 * word while its pod looks healthy (see {@link BooleanConditionProperty}).
 */
public final class OnKubeloopEnabledCondition extends SpringBootCondition {

    static final String PROPERTY = "kubeloop.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Boolean enabled = BooleanConditionProperty.read(context.getEnvironment(), PROPERTY,
                "(Kubeloop is on by default)");
        return enabled == null || enabled ? ConditionOutcome.match(PROPERTY + " is not false")
                : ConditionOutcome.noMatch(PROPERTY + " is false");
    }
}
