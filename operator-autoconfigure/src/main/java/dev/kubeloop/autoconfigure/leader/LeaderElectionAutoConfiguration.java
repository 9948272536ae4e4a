package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.sharding.ShardingAutoConfiguration;
import dev.kubeloop.leader.LeaderElection;
import dev.kubeloop.leader.LeadershipLostHandler;
import dev.kubeloop.runtime.manager.WorkGate;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;

/**
 * Leader election for the {@code ControllerManager} of {@link KubeloopAutoConfiguration}: a
 * {@link LeaderElection} bean, which the manager uses as its {@link WorkGate}, so that every replica
 * syncs its caches and only the Lease holder reconciles. On when
 * {@code kubeloop.leader-election.enabled} is true or, when it is unset, on Kubernetes. The
 * manager drives it (open after cache sync, release after draining at shutdown); its own destroy
 * method only makes sure its threads end if the manager never started.
 */
@AutoConfiguration(after = {KubeloopAutoConfiguration.class, ShardingAutoConfiguration.class})
@Conditional({OnKubeloopEnabledCondition.class, OnLeaderElectionCondition.class})
@EnableConfigurationProperties(LeaderElectionProperties.class)
public final class LeaderElectionAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(WorkGate.class)
    LeaderElection kubeloopLeaderElection(KubernetesClient kubernetesClient, LeaderElectionProperties properties,
            Environment environment, LeadershipLostHandler kubeloopLeadershipLostHandler) {
        return LeaderElectionFactory.create(kubernetesClient, properties,
                environment.getProperty("spring.application.name"), kubeloopLeadershipLostHandler);
    }

    @Bean
    @ConditionalOnMissingBean
    LeadershipLostHandler kubeloopLeadershipLostHandler(ApplicationContext applicationContext) {
        return new ExitOnLostLeadership(applicationContext, System::exit);
    }
}
