package dev.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Field managers built from names are bounded to what the API server accepts; adopting is asked per
 * call, never by default, and only of what the primary is to own.
 */
class ApplyOptionsTest {

    private static int bytes(String manager) {
        return manager.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void aManagerOfAtMost128BytesIsKeptAsGiven() {
        String exactly128 = "website-index/" + "a".repeat(114);

        assertThat(ApplyOptions.defaults().fieldManager("website-index/oak").fieldManager())
                .isEqualTo("website-index/oak");
        assertThat(ApplyOptions.defaults().fieldManager(exactly128).fieldManager()).isEqualTo(exactly128);
    }

    @Test
    void aLongerManagerIsBoundedTo128BytesStablyAndUniquely() {
        String longest = "website-index/" + "a".repeat(253);
        String other = "website-index/" + "a".repeat(252) + "b";

        String bounded = ApplyOptions.defaults().fieldManager(longest).fieldManager();

        assertThat(bytes(bounded)).isEqualTo(128);
        assertThat(bounded).startsWith("website-index/aaaa").matches(".*-[0-9a-f]{16}");
        assertThat(ApplyOptions.defaults().fieldManager(longest).fieldManager()).isEqualTo(bounded);
        assertThat(ApplyOptions.defaults().fieldManager(other).fieldManager()).isNotEqualTo(bounded).hasSize(128);
        assertThat(ApplyOptions.defaults().fieldManager("website-index/" + "a".repeat(115)).fieldManager())
                .isNotEqualTo("website-index/" + "a".repeat(114)).hasSize(128);
    }

    @Test
    void multiByteCharactersAreCountedInBytesAndNeverCutInHalf() {
        String manager = "index/" + "é".repeat(100); // 206 bytes, 106 characters

        String bounded = ApplyOptions.defaults().fieldManager(manager).fieldManager();

        assertThat(bytes(bounded)).isLessThanOrEqualTo(128);
        assertThat(new String(bounded.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(bounded);
        assertThat(bounded).startsWith("index/é").doesNotContain("\uFFFD");
    }

    @Test
    void aBlankOrUnprintableManagerIsRefusedNamingTheRule() {
        assertThatThrownBy(() -> ApplyOptions.defaults().fieldManager(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> ApplyOptions.defaults().fieldManager("index/\nname"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("printable");
        assertThatThrownBy(() -> ApplyOptions.defaults().fieldManager("index/\u00A0name"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("printable");
    }

    @Test
    void theDefaultsDoNotAdopt() {
        assertThat(ApplyOptions.defaults().adopts()).isFalse();
        assertThat(new ApplyOptions("m", true).adopts()).isFalse();
        assertThat(ApplyOptions.defaults().fieldManager("m").adopt()).isEqualTo(new ApplyOptions("m", true, true));
    }

    @Test
    void theDefaultsPruneAndLeaveStaleEntriesAndEachOptionKeepsTheOthers() {
        assertThat(ApplyOptions.defaults().retained()).isFalse();
        assertThat(ApplyOptions.defaults().removesStaleEntries()).isFalse();
        assertThat(new ApplyOptions("m", true, true).retained()).isFalse();
        assertThat(ApplyOptions.defaults().retain().fieldManager("m").adopt().removeStaleEntries())
                .isEqualTo(new ApplyOptions("m", true, true, true, true));
    }

    @Test
    void retainingWhatIsNotOwnedIsAClearError() {
        assertThatThrownBy(() -> ApplyOptions.defaults().retain().notOwned())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contradict");
        assertThatThrownBy(() -> ApplyOptions.defaults().notOwned().retain())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contradict");
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
