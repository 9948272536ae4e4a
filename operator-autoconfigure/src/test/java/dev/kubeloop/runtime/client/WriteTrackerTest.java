package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
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
    void aCacheThatCaughtUpIsReadAndTheWriteForgottenOnceANewerVersionIsCached() {
        tracker.written(configMap("a", "12", "new"));

        assertThat(tracker.fresher(ref("a"), configMap("a", "12", "new")).orElseThrow().getData())
                .containsEntry("v", "new");
        assertThat(tracker.fresher(ref("a"), configMap("a", "15", "newer")).orElseThrow().getData())
                .containsEntry("v", "newer");
        assertThat(staleReads).isEmpty();
        assertThat(tracker.pending()).isZero();
        assertThat(lags).hasSize(1);
    }

    @Test
    void theWrittenVersionReadFromTheStoreBeforeItsEventReachedTheHandlersIsStillAnEchoThen() {
        // fabric8 puts an event's object in the store before it hands the event to the handlers
        tracker.written(configMap("a", "12", "status"));
        assertThat(tracker.fresher(ref("a"), configMap("a", "12", "status")).orElseThrow().getData())
                .containsEntry("v", "status");

        assertThat(tracker.observed(configMap("a", "12", "status"))).as("the echo, arriving after the read").isTrue();
        assertThat(tracker.pending()).isZero();
        assertThat(lags).hasSize(1);
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
        assertThat(tracker.merge(ConfigMap.class, List.of(), any -> true, ref -> null)).hasSize(1);
        assertThat(tracker.lastWritten(ConfigMap.class, ref("a"))).isPresent();
    }

    @Test
    void aWriteWhoseEchoArrivesWhileTheListIsReadIsInTheListOnce() {
        ConfigMap written = configMap("a", "12", "new");
        tracker.written(written);

        // the informer stores the echo and delivers it (observed) after the cache was read: the read missed it
        List<ConfigMap> merged = tracker.merge(ConfigMap.class, () -> {
            List<ConfigMap> read = List.of();
            tracker.observed(written);
            return read;
        }, any -> true, ref -> ref.name().equals("a") ? written : null);

        assertThat(merged).as("the writes are taken before the read").extracting(cm -> cm.getMetadata().getName())
                .containsExactly("a");
    }

    @Test
    void anObjectThisControllerDeletedIsNotReadUntilRecreated() {
        ConfigMap cached = configMap("a", "12", "cached");
        tracker.deletedByWrite(cached);

        assertThat(tracker.fresher(ref("a"), cached)).as("the deleted version").isEmpty();
        assertThat(tracker.merge(ConfigMap.class, List.of(), any -> true, ref -> null)).isEmpty();
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
        assertThat(counting.merge(ConfigMap.class, List.of(), any -> true, ref -> null)).isEmpty();
        assertThat(counting.lastWritten(ConfigMap.class, ref("a"))).isEmpty();
    }

    @Test
    void aListGetsTheObjectsCreatedButNotDeliveredThatMatchItAndOnlyThose() {
        ConfigMap cached = labelled(configMap("c", "10", "cached"), "x");
        tracker.written(labelled(configMap("a", "12", "created"), "x"));
        tracker.written(labelled(configMap("b", "13", "other app"), "y"));

        List<ConfigMap> list = tracker.merge(ConfigMap.class, List.of(cached), app("x"), ref -> null);

        assertThat(list).extracting(c -> c.getMetadata().getName()).containsExactly("c", "a");
        assertThat(staleReads).as("one stale read avoided: the object the list lacked").containsExactly(true);
    }

    @Test
    void aListLosesWhatThisControllerDeletedAndWhatItsWriteNoLongerMatches() {
        ConfigMap deleted = labelled(configMap("a", "11", "cached"), "x");
        ConfigMap relabelled = labelled(configMap("b", "11", "cached"), "x");
        tracker.deletedByWrite(deleted);
        tracker.written(labelled(configMap("b", "12", "moved"), "y"));

        assertThat(tracker.merge(ConfigMap.class, List.of(deleted, relabelled), app("x"), ref -> null)).isEmpty();
        assertThat(tracker.merge(ConfigMap.class, List.of(), app("y"), ref -> null))
                .extracting(c -> c.getData().get("v")).containsExactly("moved");
    }

    @Test
    void aListTakesTheWrittenVersionOfACachedObject() {
        ConfigMap cached = labelled(configMap("a", "11", "old"), "x");
        tracker.written(labelled(configMap("a", "12", "new"), "x"));

        assertThat(tracker.merge(ConfigMap.class, List.of(cached), app("x"), ref -> cached))
                .extracting(c -> c.getData().get("v")).containsExactly("new");
    }

    @Test
    void aWriteTheCacheHasMovedPastIsNotAddedBack() {
        // written to match, then someone else changed the object: the cache's newer version does not match
        tracker.written(labelled(configMap("a", "12", "ours"), "x"));
        ConfigMap newer = labelled(configMap("a", "15", "theirs"), "y");

        assertThat(tracker.merge(ConfigMap.class, List.of(), app("x"), ref -> newer)).isEmpty();
        assertThat(tracker.pending()).as("the cache caught up").isZero();
    }

    @Test
    void aListWithNoWriteOfItsTypeIsTheCachesOwnListNotACopy() {
        tracker.written(new SecretBuilder().withNewMetadata().withNamespace("ns")
                .withName("s").withResourceVersion("12").endMetadata().build());
        List<ConfigMap> cached = List.of(configMap("a", "11", "cached"));

        assertThat(tracker.merge(ConfigMap.class, cached, any -> true, ref -> null)).isSameAs(cached);
        assertThat(staleReads).isEmpty();
    }

    @Test
    void withSubstitutionOffAListIsTheCachesAndTheMissingWriteCountedAsAStaleRead() {
        WriteTracker counting = new WriteTracker(listener, false);
        counting.written(labelled(configMap("a", "12", "created"), "x"));
        counting.written(labelled(configMap("b", "12", "other app"), "y"));

        assertThat(counting.merge(ConfigMap.class, List.of(), app("x"), ref -> null)).isEmpty();
        assertThat(staleReads).as("only the write the list's criteria select").containsExactly(false);
    }

    private static ConfigMap labelled(ConfigMap configMap, String app) {
        configMap.getMetadata().setLabels(Map.of("app", app));
        return configMap;
    }

    private static Predicate<ConfigMap> app(String app) {
        return configMap -> app.equals(configMap.getMetadata().getLabels().get("app"));
    }

    private static WriteTracker.Ref ref(String name) {
        return new WriteTracker.Ref(ConfigMap.class, "ns", name);
    }

    private static ConfigMap configMap(String name, String resourceVersion, String value) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name)
                .withResourceVersion(resourceVersion).endMetadata().addToData("v", value).build();
    }
}
