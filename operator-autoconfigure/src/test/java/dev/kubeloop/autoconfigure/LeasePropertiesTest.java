package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.leader.LeaderElectionProperties;
import dev.kubeloop.autoconfigure.sharding.ShardingProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Leader election and sharding hold their Leases with one shared type: the identity and the three
 * timings bind under each concern's own prefix, with the property names they always had, and the
 * two concerns stay apart (a sharding timing is not a leader election one).
 */
class LeasePropertiesTest {

    private static final Map<String, String> PROPERTIES = Map.of(
            "kubeloop.leader-election.identity", "leader-1",
            "kubeloop.leader-election.lease-duration", "20s",
            "kubeloop.leader-election.renew-deadline", "12s",
            "kubeloop.leader-election.retry-period", "3s",
            "kubeloop.sharding.identity", "member-1",
            "kubeloop.sharding.lease-duration", "30s");

    @Test
    void eachConcernBindsTheSharedLeaseKeysUnderItsOwnPrefix() {
        Binder binder = new Binder(new MapConfigurationPropertySource(PROPERTIES));

        LeaderElectionProperties election = binder.bindOrCreate("kubeloop.leader-election",
                LeaderElectionProperties.class);
        ShardingProperties sharding = binder.bindOrCreate("kubeloop.sharding", ShardingProperties.class);

        assertThat(election).isInstanceOf(LeaseProperties.class);
        assertThat(election.getIdentity()).isEqualTo("leader-1");
        assertThat(election.getLeaseDuration()).isEqualTo(Duration.ofSeconds(20));
        assertThat(election.getRenewDeadline()).isEqualTo(Duration.ofSeconds(12));
        assertThat(election.getRetryPeriod()).isEqualTo(Duration.ofSeconds(3));
        assertThat(sharding).isInstanceOf(LeaseProperties.class);
        assertThat(sharding.getIdentity()).isEqualTo("member-1");
        assertThat(sharding.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(sharding.getRenewDeadline()).as("sharding's own default, untouched by leader election's")
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(sharding.getRetryPeriod()).isEqualTo(Duration.ofSeconds(2));
    }
}
