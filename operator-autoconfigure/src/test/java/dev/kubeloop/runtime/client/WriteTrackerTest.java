package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class WriteTrackerTest {

    private final List<Boolean> staleReads = new CopyOnWriteArrayList<>();
    private final List<Duration> lags = new CopyOnWriteArrayList<>();
    private final WriteTracker.Listener listener = new WriteTracker.Listener() {
        @Override
        public void staleRead(boolean avoided) {
            staleReads.add(avoided);
        }

        @Override
        public void cacheCaughtUp(Duration lag) {
            lags.add(lag);
        }
    };
    private final WriteTracker tracker = new WriteTracker(listener, true);

    @Test
    void aReadGetsTheWriteWhileTheCacheIsOlder() {
        tracker.written(configMap("a", "12", "new"));

        ConfigMap read = tracker.fresher(ref("a"), configMap("a", "11", "old")).orElseThrow();

        assertThat(read.getData()).containsEntry("v", "new");
        assertThat(staleReads).containsExactly(true);
        assertThat(tracker.pending()).isEqualTo(1);
    }

    @Test
    void aCacheThatCaughtUpIsReadAndTheWriteForgotten() {
        tracker.written(configMap("a", "12", "new"));

        assertThat(tracker.fresher(ref("a"), configMap("a", "12", "new")).orElseThrow().getData())
                .containsEntry("v", "new");
        assertThat(tracker.fresher(ref("a"), configMap("a", "15", "newer")).orElseThrow().getData())
                .containsEntry("v", "newer");
        assertThat(staleReads).isEmpty();
        assertThat(tracker.pending()).isZero();
    }

    @Test
    void resourceVersionsCompareAsNumbersNotStrings() {
        tracker.written(configMap("a", "100", "new"));

        assertThat(tracker.fresher(ref("a"), configMap("a", "99", "old")).orElseThrow().getData())
                .as("99 is older than 100").containsEntry("v", "new");
    }

    @Test
    void theInformerDeliveringTheWrittenVersionEndsItAndMeasuresTheLag() {
        tracker.written(configMap("a", "12", "new"));

        tracker.observed(configMap("a", "11", "old"));
        assertThat(tracker.pending()).as("an older event confirms nothing").isEqualTo(1);
        tracker.observed(configMap("a", "12", "new"));

        assertThat(tracker.pending()).isZero();
        assertThat(lags).singleElement().satisfies(lag -> assertThat(lag).isPositive());
    }

    @Test
    void theDeliveryOfAVersionThisControllerWroteIsAnEcho() {
        tracker.written(configMap("a", "12", "finalizer"));
        tracker.written(configMap("a", "13", "status"));

        assertThat(tracker.observed(configMap("a", "11", "someone else's"))).isFalse();
        assertThat(tracker.observed(configMap("a", "12", "finalizer"))).as("the first of two writes").isTrue();
        assertThat(tracker.pending()).isEqualTo(1);
        assertThat(tracker.observed(configMap("a", "13", "status"))).isTrue();
        assertThat(tracker.pending()).isZero();
        assertThat(tracker.observed(configMap("a", "14", "someone else's"))).isFalse();
    }

    @Test
    void theDeleteOfAnObjectThisControllerDeletedIsAnEcho() {
        ConfigMap cached = configMap("a", "12", "cached");
        tracker.deletedByWrite(cached);

        assertThat(tracker.deleted(cached)).isTrue();
        assertThat(tracker.deleted(configMap("b", "3", "other"))).isFalse();
    }

    @Test
    void withSubstitutionOffNothingIsAnEcho() {
        WriteTracker counting = new WriteTracker(listener, false);
        counting.written(configMap("a", "12", "new"));

        assertThat(counting.observed(configMap("a", "12", "new"))).isFalse();
        assertThat(counting.pending()).isZero();
    }

    @Test
    void eventsArrivingWhileAWriteIsOnItsWayWaitForItsResponse() {
        List<String> delivered = new CopyOnWriteArrayList<>();
        tracker.writing(ref("a"));

        // the watch is faster than the response: the echo of the write comes first, then someone else's change
        tracker.observe(configMap("a", "12", "ours"), false, () -> delivered.add("12"));
        tracker.observe(configMap("a", "13", "theirs"), false, () -> delivered.add("13"));
        assertThat(delivered).as("held while the write is on its way").isEmpty();
        tracker.written(configMap("a", "12", "ours"));
        tracker.writeEnded(ref("a"));

        assertThat(delivered).as("the echo is dropped, the other change delivered").containsExactly("13");
        tracker.observe(configMap("a", "14", "later"), false, () -> delivered.add("14"));
        assertThat(delivered).as("nothing in flight: at once").containsExactly("13", "14");
    }

    @Test
    void aFailedWriteDeliversWhatItHeld() {
        List<String> delivered = new CopyOnWriteArrayList<>();
        tracker.writing(ref("a"));
        tracker.observe(configMap("a", "12", "theirs"), false, () -> delivered.add("12"));

        tracker.writeEnded(ref("a")); // the write threw: nothing recorded

        assertThat(delivered).containsExactly("12");
    }

    @Test
    void theDeleteOfAnObjectBeingDeletedWaitsForTheDeletesEnd() {
        List<String> delivered = new CopyOnWriteArrayList<>();
        ConfigMap cached = configMap("a", "12", "cached");
        tracker.writing(ref("a"));
        tracker.observe(cached, true, () -> delivered.add("delete"));

        tracker.deletedByWrite(cached);
        tracker.writeEnded(ref("a"));

        assertThat(delivered).as("our own delete's echo").isEmpty();
        assertThat(tracker.pending()).isZero();
    }

    @Test
    void withSubstitutionOffEventsAreNeverHeld() {
        WriteTracker counting = new WriteTracker(listener, false);
        List<String> delivered = new CopyOnWriteArrayList<>();
        counting.writing(ref("a"));

        counting.observe(configMap("a", "12", "ours"), false, () -> delivered.add("12"));

        assertThat(delivered).containsExactly("12");
    }

    @Test
    void anOlderWriteNeverReplacesANewerOne() {
        tracker.written(configMap("a", "12", "new"));
        tracker.written(configMap("a", "11", "old"));

        assertThat(tracker.fresher(ref("a"), configMap("a", "10", "cached")).orElseThrow().getData())
                .containsEntry("v", "new");
    }

    @Test
    void anObjectCreatedButNotDeliveredIsReadAsWritten() {
        tracker.written(configMap("a", "12", "new"));

        assertThat(tracker.<ConfigMap>fresher(ref("a"), null)).map(cm -> cm.getData().get("v")).contains("new");
        assertThat(tracker.writtenOf(ConfigMap.class)).hasSize(1);
        assertThat(tracker.lastWritten(ConfigMap.class, ref("a"))).isPresent();
    }

    @Test
    void anObjectThisControllerDeletedIsNotReadUntilRecreated() {
        ConfigMap cached = configMap("a", "12", "cached");
        tracker.deletedByWrite(cached);

        assertThat(tracker.fresher(ref("a"), cached)).as("the deleted version").isEmpty();
        assertThat(tracker.writtenOf(ConfigMap.class)).isEmpty();
        assertThat(tracker.fresher(ref("a"), configMap("a", "20", "recreated"))).map(cm -> cm.getData().get("v"))
                .contains("recreated");
    }

    @Test
    void theInformerDeliveringADeleteEndsIt() {
        ConfigMap cached = configMap("a", "12", "cached");
        tracker.deletedByWrite(cached);
        tracker.observed(cached);
        assertThat(tracker.pending()).as("an update of the deleted version confirms nothing").isEqualTo(1);

        tracker.deleted(cached);

        assertThat(tracker.pending()).isZero();
        assertThat(lags).hasSize(1);
    }

    @Test
    void withSubstitutionOffStaleReadsAreCountedButTheCacheIsRead() {
        WriteTracker counting = new WriteTracker(listener, false);
        counting.written(configMap("a", "12", "new"));

        assertThat(counting.fresher(ref("a"), configMap("a", "11", "old")).orElseThrow().getData())
                .containsEntry("v", "old");
        assertThat(staleReads).containsExactly(false);
        assertThat(counting.writtenOf(ConfigMap.class)).isEmpty();
        assertThat(counting.lastWritten(ConfigMap.class, ref("a"))).isEmpty();
    }

    private static WriteTracker.Ref ref(String name) {
        return new WriteTracker.Ref(ConfigMap.class, "ns", name);
    }

    private static ConfigMap configMap(String name, String resourceVersion, String value) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name)
                .withResourceVersion(resourceVersion).endMetadata().addToData("v", value).build();
    }
}
