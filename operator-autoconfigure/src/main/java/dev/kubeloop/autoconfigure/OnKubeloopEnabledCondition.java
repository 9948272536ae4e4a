package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.Settings;

/**
 * Kubeloop is on unless {@code kubeloop.enabled} is false; a value that is not a boolean fails
 * startup naming the property ({@link OnBooleanPropertyCondition}).
 */
public final class OnKubeloopEnabledCondition extends OnBooleanPropertyCondition {

    public OnKubeloopEnabledCondition() {
        super(Settings.ENABLED.property(), true, "(Kubeloop is on by default)");
    }
}
