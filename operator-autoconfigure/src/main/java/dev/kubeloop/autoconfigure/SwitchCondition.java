package dev.kubeloop.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * A Kubeloop switch: a condition decided by the environment alone (properties, the cloud platform),
 * which adds or leaves out some of Kubeloop's beans. Each decision is recorded in the context's
 * {@link SwitchDecisions}: an application processed ahead of time (Spring AOT) fixes its beans at
 * build time, and its start-up checks that every switch still decides as it did then
 * ({@link SwitchDecisionsAotProcessor}). A subclass needs a no-argument constructor (the check
 * creates it again) and must be stateless.
 */
public abstract class SwitchCondition extends SpringBootCondition {

    @Override
    public final ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConditionOutcome outcome = decide(context.getEnvironment());
        SwitchDecisions.record(context.getBeanFactory(), getClass(), outcome);
        return outcome;
    }

    /**
     * Whether the switch is on here, with a message naming what decided it (the property and its
     * value); a value that is not valid throws, naming the property.
     */
    public abstract ConditionOutcome decide(Environment environment);
}
