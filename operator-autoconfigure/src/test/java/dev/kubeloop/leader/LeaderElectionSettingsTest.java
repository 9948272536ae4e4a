package dev.kubeloop.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Timings and names a Lease can live with, and the message for each one it cannot. */
class LeaderElectionSettingsTest {

    @Test
    void theDefaultsAreClientGosAndValid() {
        LeaderElectionSettings settings = LeaderElectionSettings.builder("ns", "op-leader", "pod_1234").build();

        assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(settings.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.releaseOnShutdown()).isTrue();
        assertThat(settings.onLost()).isEqualTo(OnLost.EXIT);
        assertThat(settings.interruptGrace()).isEqualTo(Duration.ofSeconds(5));
    }

    @ParameterizedTest(name = "lease {0}, renew {1}, retry {2}")
    @CsvSource({
        "PT15S, PT10S, PT2S",
        "PT2S, PT1.5S, PT0.2S",
        "PT1S, PT0.5S, PT0.1S",
    })
    void validTimings(Duration lease, Duration renew, Duration retry) {
        assertThatNoException().isThrownBy(() -> LeaderElectionSettings.checkTimings(lease, renew, retry, "p."));
    }

    @ParameterizedTest(name = "lease {0}, renew {1}, retry {2}: {3}")
    @CsvSource(delimiter = '|', value = {
        "PT10S | PT10S | PT2S  | p.lease-duration (10s) must be longer than p.renew-deadline (10s)",
        "PT5S  | PT10S | PT2S  | p.lease-duration (5s) must be longer than p.renew-deadline (10s)",
        "PT15S | PT4S  | PT2S  | p.renew-deadline (4s) must be longer than 2.2 × p.retry-period (2s), i.e. more than 4400ms",
        "PT15S | PT2S  | PT2S  | p.renew-deadline (2s) must be longer than 2.2 × p.retry-period (2s)",
        "PT15S | PT1S  | PT2S  | p.renew-deadline (1s) must be longer than 2.2 × p.retry-period (2s)",
        "PT2.5S| PT1S  | PT0.2S| p.lease-duration must be a whole number of seconds (the Lease stores leaseDurationSeconds), was 2500ms",
        "PT0S  | PT10S | PT2S  | p.lease-duration must be a positive duration, was 0s",
        "PT15S | PT-1S | PT2S  | p.renew-deadline must be a positive duration, was -1s",
        "PT15S | PT10S | PT0S  | p.retry-period must be a positive duration, was 0s",
    })
    void invalidTimingsNameTheSettingsAtFault(Duration lease, Duration renew, Duration retry, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> LeaderElectionSettings.checkTimings(lease, renew, retry,
                "p.")).withMessageContaining(message);
    }

    @ParameterizedTest
    @CsvSource({"My-Operator", "-op", "op-", "op_leader", "''"})
    void leaseNamesMustBeDnsSubdomains(String name) {
        assertThatIllegalArgumentException().isThrownBy(() -> LeaderElectionSettings.builder("ns", name, "me").build())
                .withMessageContaining("lease-name '" + name + "' is not a valid Lease name");
    }

    @Test
    void namespaceAndIdentityAreRequired() {
        assertThatIllegalArgumentException().isThrownBy(() -> LeaderElectionSettings.builder("Ns", "l", "me").build())
                .withMessageContaining("lease-namespace 'Ns' is not a valid namespace name");
        assertThatIllegalArgumentException().isThrownBy(() -> LeaderElectionSettings.builder("ns", "l", " ").build())
                .withMessageContaining("identity must not be blank");
    }
}
