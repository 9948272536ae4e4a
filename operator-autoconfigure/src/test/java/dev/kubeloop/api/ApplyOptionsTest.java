package dev.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

/** Adopting is asked per call, never by default, and only of what the primary is to own. */
class ApplyOptionsTest {

    @Test
    void theDefaultsDoNotAdopt() {
        assertThat(ApplyOptions.defaults().adopts()).isFalse();
        assertThat(new ApplyOptions("m", true).adopts()).isFalse();
        assertThat(ApplyOptions.defaults().fieldManager("m").adopt()).isEqualTo(new ApplyOptions("m", true, true));
    }

    @Test
    void adoptingWhatIsNotOwnedIsAClearError() {
        assertThatThrownBy(() -> ApplyOptions.defaults().adopt().notOwned())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contradict");
        assertThatThrownBy(() -> ApplyOptions.defaults().notOwned().adopt())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contradict");
    }

    @Test
    void aForeignObjectIsARefusalToSayInAConditionButNotAConflict() {
        KubernetesClientException e = new ForeignObjectException("Service", ObjectKey.of("ns", "payments"),
                "Service payments exists and is controlled by Database payments-db");

        assertThat(ApiRefusal.of(new RuntimeException(e))).hasValueSatisfying(refusal -> {
            assertThat(refusal.foreign()).isTrue();
            assertThat(refusal.invalid()).isTrue();
            assertThat(refusal.code()).isEqualTo(409);
            assertThat(refusal.reason()).isEqualTo("AlreadyExists");
            assertThat(refusal.describe()).isEqualTo("Service payments exists and is controlled by Database payments-db");
        });
        assertThat(ApiRefusal.of(new KubernetesClientException("Operation cannot be fulfilled", 409, null)))
                .as("a conflict on a resourceVersion").isEmpty();
    }
}
