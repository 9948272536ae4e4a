package dev.kubeloop.runtime;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.sharding.ShardingSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one rule for a Lease's timings: which timings a Lease can live with, and the message for
 * each one it cannot. Leader election and sharding obey the same rule.
 */
class LeaseTimingsTest {

    @ParameterizedTest(name = "lease {0}, renew {1}, retry {2}")
    @CsvSource({
        "PT15S, PT10S, PT2S",
        "PT15S, PT4S, PT2S",
        "PT2S, PT1.5S, PT0.2S",
        "PT1S, PT0.5S, PT0.1S",
        "PT1S, PT0.2S, PT0.1S",
    })
    void validTimings(Duration lease, Duration renew, Duration retry) {
        assertThatNoException().isThrownBy(() -> LeaseTimings.check(lease, renew, retry, "p."));
    }

    @ParameterizedTest(name = "lease {0}, renew {1}, retry {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "PT10S | PT10S | PT2S  | p.lease-duration (10s) must be longer than p.renew-deadline (10s)",
        "PT5S  | PT10S | PT2S  | p.lease-duration (5s) must be longer than p.renew-deadline (10s)",
        "PT15S | PT3S  | PT2S  | p.renew-deadline (3s) must be at least 2 × p.retry-period (2s)",
        "PT15S | PT2S  | PT2S  | p.renew-deadline (2s) must be at least 2 × p.retry-period (2s)",
        "PT15S | PT1S  | PT2S  | p.renew-deadline (1s) must be at least 2 × p.retry-period (2s)",
        "PT2.5S| PT1S  | PT0.2S| p.lease-duration must be a whole number of seconds (the Lease stores leaseDurationSeconds), was 2500ms",
        "PT0S  | PT10S | PT2S  | p.lease-duration must be a positive duration, was 0s",
        "PT15S | PT-1S | PT2S  | p.renew-deadline must be a positive duration, was -1s",
        "PT15S | PT10S | PT0S  | p.retry-period must be a positive duration, was 0s",
    })
    void invalidTimingsNameTheSettingsAtFault(Duration lease, Duration renew, Duration retry, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> LeaseTimings.check(lease, renew, retry, "p."))
                .withMessageContaining(message);
    }

    /** 4 s renew at 2 s retry: the old leader election rule (> 2.2 ×) refused it, sharding's accepted it. */
    @Test
    void leaderElectionAndShardingAcceptAndRefuseTheSameTimings() {
        Duration lease = Duration.ofSeconds(15);
        Duration retry = Duration.ofSeconds(2);
        assertThatNoException().isThrownBy(() -> LeaderElectionSettings.builder("ns", "op-leader", "me")
                .leaseDuration(lease).renewDeadline(Duration.ofSeconds(4)).retryPeriod(retry).build());
        assertThatNoException().isThrownBy(() -> new ShardingSettings("op", "ns", "me", 32, lease,
                Duration.ofSeconds(4), retry, Duration.ofSeconds(30)));

        Duration tooShort = Duration.ofMillis(3999);
        assertThatIllegalArgumentException().isThrownBy(() -> LeaderElectionSettings.builder("ns", "op-leader", "me")
                .leaseDuration(lease).renewDeadline(tooShort).retryPeriod(retry).build())
                .withMessageContaining("renew-deadline (3999ms) must be at least 2 × retry-period (2s)");
        assertThatIllegalArgumentException().isThrownBy(() -> new ShardingSettings("op", "ns", "me", 32, lease,
                tooShort, retry, Duration.ofSeconds(30)))
                .withMessageContaining("kubeloop.sharding.renew-deadline (3999ms) must be at least 2 × "
                        + "kubeloop.sharding.retry-period (2s)");
    }
}
