package dev.kubeloop.sample.demo;

import dev.kubeloop.mock.EmbeddedApiServer;
import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the demo API server should run: {@code sample.demo=on}, or {@code auto} (the
 * default) and no cluster is configured: not inside a pod, no {@code KUBECONFIG} file, no
 * {@code ~/.kube/config}, no {@code kubernetes.master}. {@code off} never runs it.
 */
class DemoModeCondition extends SpringBootCondition {

    static final String PROPERTY = "sample.demo";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return outcome(context.getEnvironment());
    }

    /** Whether demo mode applies in {@code environment}, and why. */
    static ConditionOutcome outcome(Environment environment) {
        String mode = environment.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "on", "true" -> ConditionOutcome.match(PROPERTY + "=" + mode);
            case "off", "false" -> ConditionOutcome.noMatch(PROPERTY + "=" + mode);
            case "auto" -> clusterConfigured(environment) == null
                    ? ConditionOutcome.match("no cluster configured")
                    : ConditionOutcome.noMatch(clusterConfigured(environment));
            default -> throw new IllegalStateException("Invalid value '" + mode + "' for property " + PROPERTY
                    + ": expected auto, on or off");
        };
    }

    /** Why a cluster counts as configured, or null. */
    static String clusterConfigured(Environment environment) {
        return EmbeddedApiServer.configuredCluster(environment::getProperty).orElse(null);
    }
}
