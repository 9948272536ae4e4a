package dev.kubeloop.autoconfigure.tracing;

import dev.kubeloop.autoconfigure.OnBooleanPropertyCondition;
import dev.kubeloop.runtime.Settings;

/**
 * Matches unless {@code kubeloop.tracing.enabled} is false; a value that is not a boolean fails
 * startup naming the property ({@link OnBooleanPropertyCondition}).
 */
final class OnTracingEnabledCondition extends OnBooleanPropertyCondition {

    OnTracingEnabledCondition() {
        super(Settings.TRACING_ENABLED.property(), true,
                "(tracing follows the application's ObservationRegistry by default)");
    }
}
