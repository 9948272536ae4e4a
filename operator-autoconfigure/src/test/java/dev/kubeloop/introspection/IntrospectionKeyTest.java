package dev.kubeloop.introspection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kubeloop.api.ObjectKey;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The keys the introspection endpoint's write operation accepts, case by case. */
class IntrospectionKeyTest {

    @ParameterizedTest
    @CsvSource({
        "ns/a,    true,  ns, a",
        "' ns/a ', true, ns, a",
        "node-1,  false, ,   node-1"})
    void validKeys(String key, boolean namespaced, String namespace, String name) {
        assertThat(Introspection.parseKey(key, namespaced)).isEqualTo(new ObjectKey(namespace, name));
    }

    @ParameterizedTest
    @CsvSource({
        "a,       true,  has no namespace",
        "ns/a,    false, has a namespace",
        "a/b/c,   true,  is not a key",
        "/a,      true,  is not a key",
        "a/,      true,  is not a key",
        "'',      true,  key is required",
        "'   ',   false, key is required"})
    void invalidKeysAreRejectedSayingWhy(String key, boolean namespaced, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> Introspection.parseKey(key, namespaced))
                .withMessageContaining(message);
    }
}
