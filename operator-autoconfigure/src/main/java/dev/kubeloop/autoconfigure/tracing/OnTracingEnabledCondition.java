package dev.kubeloop.autoconfigure.tracing;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code kubeloop.tracing.enabled} is false; a value that is not a boolean fails
 * startup naming the property (Spring's own boolean condition would only say it could not process it).
 */
final class OnTracingEnabledCondition extends SpringBootCondition {

    static final String PROPERTY = "kubeloop.tracing.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Boolean enabled = BooleanConditionProperty.read(context.getEnvironment(), PROPERTY,
                "(tracing follows the application's ObservationRegistry by default)");
        return enabled == null || enabled ? ConditionOutcome.match(PROPERTY + " is not false")
                : ConditionOutcome.noMatch(PROPERTY + " is false");
    }
}
