package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import org.junit.jupiter.api.Test;

/** Which reads a reconcile's own changes make out of date, and so which statuses may be stale. */
class StatusBasisTest {

    private static final ObjectKey A = ObjectKey.of("ns", "a");
    private static final ObjectKey B = ObjectKey.of("ns", "b");

    private final StatusBasis basis = new StatusBasis();

    @Test
    void aStatusFromNoReadIsNeverStale() {
        basis.statusWritten();
        basis.changed(ConfigMap.class, A, true);

        assertThat(basis.statusMayBeStale()).isFalse();
    }

    @Test
    void anOwnedChildChangedAfterTheStatusThatListedThemMakesItStale() {
        basis.readOwned(ConfigMap.class);
        basis.statusWritten();
        assertThat(basis.statusMayBeStale()).isFalse();

        basis.changed(ConfigMap.class, A, true);

        assertThat(basis.statusMayBeStale()).isTrue();
    }

    @Test
    void anObjectTheReadCouldNotHaveReturnedChangesNothing() {
        basis.readOwned(ConfigMap.class);
        basis.readOne(Secret.class, A);
        basis.statusWritten();

        basis.changed(ConfigMap.class, B, false); // not the primary's: not in its owned list
        basis.changed(Secret.class, B, true); // another key than the one read

        assertThat(basis.statusMayBeStale()).isFalse();
        basis.changed(Secret.class, A, false);
        assertThat(basis.statusMayBeStale()).as("the key read").isTrue();
    }

    @Test
    void anyListOfATypeIsMadeOutOfDateByAnyChangeOfIt() {
        basis.readAny(ConfigMap.class);
        basis.statusWritten();

        basis.changed(ConfigMap.class, B, false);

        assertThat(basis.statusMayBeStale()).isTrue();
    }

    @Test
    void aStatusWrittenAfterTheChangeFromAReadMadeBeforeItIsStale() {
        basis.readOwned(ConfigMap.class);
        basis.changed(ConfigMap.class, A, true);

        basis.statusWritten();

        assertThat(basis.statusMayBeStale()).isTrue();
    }

    @Test
    void readingAgainAfterTheChangeMakesTheNextStatusRight() {
        basis.readOwned(ConfigMap.class);
        basis.statusWritten();
        basis.changed(ConfigMap.class, A, true);
        assertThat(basis.statusMayBeStale()).isTrue();

        basis.readOwned(ConfigMap.class);
        basis.statusWritten();

        assertThat(basis.statusMayBeStale()).as("the last status is what counts").isFalse();
    }
}
