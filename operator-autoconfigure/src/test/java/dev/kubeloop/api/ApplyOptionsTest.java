package dev.kubeloop.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A field manager built from an object's name (one per primary, for a shared object) must be
 * accepted by the API server whatever the name: at most 128 bytes, printable. Pinned at the
 * limits: a 253-character name (the longest a ConfigMap or a custom resource may have).
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
}
