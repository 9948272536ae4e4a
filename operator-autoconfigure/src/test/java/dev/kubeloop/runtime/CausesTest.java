package dev.kubeloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** The one walk of a cause chain: outermost first, types and HTTP codes found wherever they are wrapped. */
class CausesTest {

    @Test
    void theChainListsTheErrorThenItsCausesOutermostFirst() {
        IOException io = new IOException("refused");
        UncheckedIOException unchecked = new UncheckedIOException(io);
        IllegalStateException outer = new IllegalStateException("wrapped", unchecked);

        assertThat(Causes.chain(outer)).containsExactly(outer, unchecked, io);
        assertThat(Causes.chain(null)).isEmpty();
    }

    @Test
    void aChainThatLoopsBackEndsWhereItWouldRepeat() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b); // a → b → a: the JDK refuses only a throwable that is its own cause

        assertThat(Causes.chain(a)).containsExactly(a, b);
        assertThat(Causes.find(a, IOException.class)).isEmpty();
    }

    @Test
    void findReturnsTheOutermostCauseOfTheType() {
        IOException inner = new IOException("inner");
        IOException outer = new IOException("outer", inner);

        assertThat(Causes.find(new RuntimeException(outer), IOException.class)).containsSame(outer);
        assertThat(Causes.find(outer, UncheckedIOException.class)).isEmpty();
    }

    @Test
    void statusFindsTheApiErrorWithThatCodeWhereverItIsWrapped() {
        KubernetesClientException conflict = new KubernetesClientException("conflict", 409, null);
        RuntimeException wrapped = new RuntimeException(new IllegalStateException(conflict));

        assertThat(Causes.status(wrapped, 409)).containsSame(conflict);
        assertThat(Causes.status(wrapped, 403)).isEmpty();
    }
}
