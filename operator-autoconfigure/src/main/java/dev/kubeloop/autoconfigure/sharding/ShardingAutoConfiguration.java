package dev.kubeloop.autoconfigure.sharding;

import dev.kubeloop.autoconfigure.BooleanConditionProperty;
import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.runtime.manager.WorkGate;
import dev.kubeloop.sharding.ShardingGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Sharding for the {@code ControllerManager} of {@link KubeloopAutoConfiguration}: a
 * {@link ShardingGate} bean, which the manager uses as its {@link WorkGate}, so that the replicas
 * split the primaries (their caches and reconciles) among them. On when
 * {@code kubeloop.sharding.enabled} is true; leader election is then off (its auto-configuration,
 * ordered after this one, backs off), and asking for both fails startup. The manager drives the
 * gate (joins after its unsharded caches synced, leaves after draining at shutdown); its own
 * destroy method only makes sure its threads end if the manager never started.
 */
@AutoConfiguration(after = KubeloopAutoConfiguration.class)
@Conditional({OnKubeloopEnabledCondition.class, OnShardingCondition.class})
@EnableConfigurationProperties(ShardingProperties.class)
public final class ShardingAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(WorkGate.class)
    ShardingGate kubeloopShardingGate(KubernetesClient kubernetesClient, ShardingProperties properties,
            Environment environment) {
        return ShardingFactory.create(kubernetesClient, properties,
                environment.getProperty("spring.application.name"),
                BooleanConditionProperty.read(environment, LeaderElectionSettings.ENABLED.property(),
                        "to elect a leader only when running on Kubernetes"));
    }
}
