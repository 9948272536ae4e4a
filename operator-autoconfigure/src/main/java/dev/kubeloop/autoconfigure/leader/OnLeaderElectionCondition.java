package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import dev.kubeloop.autoconfigure.SwitchCondition;
import dev.kubeloop.autoconfigure.sharding.OnShardingCondition;
import dev.kubeloop.leader.LeaderElectionSettings;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;

/**
 * Leader election is on when {@code kubeloop.leader-election.enabled} says so; when the property is
 * not set, when Spring Boot detects Kubernetes as the cloud platform (or
 * {@code spring.main.cloud-platform=kubernetes}), since that is where replicas run. Never while
 * {@code kubeloop.sharding.enabled} is true: sharded replicas all work, each on its share.
 */
final class OnLeaderElectionCondition extends SwitchCondition {

    private static final String PROPERTY = LeaderElectionSettings.ENABLED.property();

    @Override
    public ConditionOutcome decide(Environment environment) {
        OnShardingCondition sharding = new OnShardingCondition();
        if (sharding.isOn(environment)) {
            // sharding replaces leader election; both set explicitly fails in ShardingFactory, naming them
            return ConditionOutcome.noMatch(sharding.property() + " is true: the replicas shard the work");
        }
        Boolean configured = BooleanConditionProperty.read(environment, PROPERTY,
                "to elect a leader only when running on Kubernetes");
        if (configured != null) {
            return configured ? ConditionOutcome.match(PROPERTY + " is true")
                    : ConditionOutcome.noMatch(PROPERTY + " is false");
        }
        return CloudPlatform.KUBERNETES.isActive(environment)
                ? ConditionOutcome.match(PROPERTY + " is not set and the cloud platform is Kubernetes")
                : ConditionOutcome.noMatch(PROPERTY + " is not set and the cloud platform is not Kubernetes");
    }
}
