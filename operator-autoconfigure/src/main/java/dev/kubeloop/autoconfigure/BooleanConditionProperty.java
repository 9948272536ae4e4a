package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.env.Environment;

/**
 * Reads a boolean property for a condition. A value that is not a boolean fails startup naming the
 * property: thrown from a condition, Spring would only say "Error processing condition". Accepts
 * what Spring converts to a boolean (true/false, on/off, yes/no, 1/0, any case), as binding does.
 */
public final class BooleanConditionProperty {

    private BooleanConditionProperty() {
    }

    /**
     * The property's value, or null when it is not set.
     *
     * @param whenRemoved what leaving the property out means, completing "or remove it ..."
     */
    public static Boolean read(Environment environment, String property, String whenRemoved) {
        try {
            return environment.getProperty(property, Boolean.class);
        } catch (ConversionException e) {
            throw new KubeloopConfigurationException("Property " + property + " has an invalid value '"
                    + environment.getProperty(property) + "': it must be true or false.",
                    "Set " + property + " to true or false, or remove it " + whenRemoved + ".", e);
        }
    }
}
