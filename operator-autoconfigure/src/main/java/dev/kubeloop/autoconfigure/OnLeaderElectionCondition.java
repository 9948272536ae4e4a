package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Leader election is on when {@code kubeloop.leader-election.enabled} says so; when the property is
 * not set, when Spring Boot detects Kubernetes as the cloud platform (or
 * {@code spring.main.cloud-platform=kubernetes}), since that is where replicas run.
 */
final class OnLeaderElectionCondition extends SpringBootCondition {

    static final String PROPERTY = "kubeloop.leader-election.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        Boolean configured;
        try {
            configured = environment.getProperty(PROPERTY, Boolean.class);
        } catch (ConversionException e) {
            // thrown from a condition, Spring would only say "Error processing condition": name the property
            throw new KubeloopConfigurationException("Property " + PROPERTY + " has an invalid value '"
                    + environment.getProperty(PROPERTY) + "': it must be true or false.", "Set " + PROPERTY
                            + " to true or false, or remove it to elect a leader only when running on Kubernetes.", e);
        }
        if (configured != null) {
            return configured ? ConditionOutcome.match(PROPERTY + " is true")
                    : ConditionOutcome.noMatch(PROPERTY + " is false");
        }
        return CloudPlatform.KUBERNETES.isActive(environment)
                ? ConditionOutcome.match(PROPERTY + " is not set and the cloud platform is Kubernetes")
                : ConditionOutcome.noMatch(PROPERTY + " is not set and the cloud platform is not Kubernetes");
    }
}
