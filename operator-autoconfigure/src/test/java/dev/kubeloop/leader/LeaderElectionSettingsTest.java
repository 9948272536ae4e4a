package dev.kubeloop.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Names a Lease can live with, and the message for each one it cannot (timings: {@code LeaseTimingsTest}). */
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
