package dev.kubeloop.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.core.env.Environment;

/**
 * A condition on one boolean property with a default, read with {@link BooleanConditionProperty}
 * so that a value that is not a boolean fails startup naming the property. Spring Boot's
 * {@code @ConditionalOnBooleanProperty} compares the text with "true": a typo such as {@code ture}
 * would switch a feature off (or, for Kubeloop itself, the whole operator) without a word while the
 * pod looks healthy. Each Kubeloop switch is a subclass that only names its property, its default
 * and what leaving it out means. Stateless.
 */
public abstract class OnBooleanPropertyCondition extends SwitchCondition {

    private final String property;
    private final boolean whenUnset;
    private final String whenRemoved;

    /**
     * @param whenUnset the value when the property is not set
     * @param whenRemoved what leaving the property out means, completing "or remove it ..." in the
     *     failure's action
     */
    protected OnBooleanPropertyCondition(String property, boolean whenUnset, String whenRemoved) {
        this.property = property;
        this.whenUnset = whenUnset;
        this.whenRemoved = whenRemoved;
    }

    @Override
    public final ConditionOutcome decide(Environment environment) {
        boolean on = isOn(environment);
        String said = whenUnset ? (on ? " is not false" : " is false") : (on ? " is true" : " is not true");
        return on ? ConditionOutcome.match(property + said) : ConditionOutcome.noMatch(property + said);
    }

    /** The property's value, or the default when it is not set. */
    public final boolean isOn(Environment environment) {
        Boolean value = BooleanConditionProperty.read(environment, property, whenRemoved);
        return value == null ? whenUnset : value;
    }

    /** The property this condition reads. */
    public final String property() {
        return property;
    }
}
