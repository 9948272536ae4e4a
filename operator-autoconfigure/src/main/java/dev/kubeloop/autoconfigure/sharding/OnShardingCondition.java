package dev.kubeloop.autoconfigure.sharding;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Sharding is on when {@code kubeloop.sharding.enabled} is true; it is off by default. */
public final class OnShardingCondition extends SpringBootCondition {

    public static final String PROPERTY = "kubeloop.sharding.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return enabled(context) ? ConditionOutcome.match(PROPERTY + " is true")
                : ConditionOutcome.noMatch(PROPERTY + " is not true");
    }

    public static boolean enabled(ConditionContext context) {
        Boolean configured = BooleanConditionProperty.read(context.getEnvironment(), PROPERTY, "to keep it off");
        return Boolean.TRUE.equals(configured);
    }
}
