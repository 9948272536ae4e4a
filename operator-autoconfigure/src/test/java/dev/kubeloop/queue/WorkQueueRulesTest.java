package dev.kubeloop.queue;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue's contract as a table: each row is a named script of operations and expectations
 * (see {@link QueueScript}), in the spirit of client-go's workqueue tests.
 */
class WorkQueueRulesTest {

    private static final Duration STARVATION = Duration.ofSeconds(10);

    static Stream<Arguments> dedupAndProcessing() {
        return Stream.of(
                row("addedItemIsHandedOutOnce", "add a", "len 1", "get a", "len 0", "done a", "len 0", "tracked 0"),
                row("queuedItemIsQueuedOnceHoweverOftenAdded", "add a", "add a", "add a", "len 1", "get a", "len 0"),
                row("fifoWithinOnePriority", "add a", "add b", "add c", "add a", "get a", "get b", "get c"),
                row("itemInProcessingIsNotHandedOutAgain", "add a", "get a", "add a", "len 0", "depth 1"),
                row("reAddedWhileProcessingRunsAgainAfterDone",
                        "add a", "get a", "add a", "add a", "add a", "done a", "len 1", "get a", "done a", "len 0", "tracked 0"),
                row("reAddedWhileProcessingGoesBehindWhatIsQueued",
                        "add a", "get a", "add a", "add b", "done a", "get b", "get a"),
                row("doneForAnItemNotInProcessingIsIgnored", "done a", "add a", "done a", "len 1", "get a"),
                row("otherItemsFlowWhileOneIsProcessed", "add a", "add b", "get a", "add a", "get b", "len 0"));
    }

    static Stream<Arguments> shutdown() {
        return Stream.of(
                row("addsAfterShutDownAreIgnored", "shutdown", "add a", "len 0", "get none"),
                row("queuedItemsAreStillHandedOutAfterShutDown",
                        "add a", "add b", "shutdown", "get a", "get b", "get none"),
                row("delayedItemsAreDroppedOnShutDown", "after a 1s", "shutdown", "waiting 0", "tracked 0", "tick 2s",
                        "get none"),
                row("delayedReAddOfItemInProcessingIsDroppedOnShutDownAfterDone",
                        "add a", "get a", "after a 1s", "shutdown", "tracked 1", "done a", "tracked 0", "get none"),
                row("itemReAddedWhileProcessingIsHandedOutAfterShutDown",
                        "add a", "get a", "add a", "shutdown", "done a", "get a", "get none"),
                row("rateLimitedAddsAfterShutDownAreIgnored", "shutdown", "limited a", "tick 1s", "len 0"));
    }

    static Stream<Arguments> delays() {
        return Stream.of(
                row("delayedItemIsNotReadyBeforeItsTime", "after a 5s", "len 0", "waiting 1", "tick 4999ms", "len 0",
                        "tick 1ms", "len 1", "waiting 0", "get a"),
                row("zeroDelayAddsNow", "after a 0s", "len 1"),
                row("negativeDelayAddsNow", "after a -3s", "len 1"),
                row("earlierDelayWins", "after a 10s", "after a 2s", "tick 2s", "len 1", "get a"),
                row("laterDelayDoesNotPostpone", "after a 2s", "after a 10s", "tick 2s", "len 1", "get a"),
                row("plainAddOverridesDelay", "after a 10s", "add a", "len 1", "waiting 0", "get a"),
                row("delayDoesNotPostponeAReadyItem", "add a", "after a 10s", "len 1", "waiting 0", "get a"),
                row("delayedItemsBecomeReadyInReadyTimeOrder",
                        "after b 2s", "after a 1s", "tick 3s", "get a", "get b"),
                row("delayedItemComesDueWhileProcessingRunsAfterDone",
                        "add a", "get a", "after a 1s", "tick 1s", "len 0", "depth 1", "done a", "get a", "done a",
                        "tracked 0"),
                row("delayedReAddStaysDelayedAfterDone",
                        "add a", "get a", "after a 1s", "done a", "len 0", "waiting 1", "tick 1s", "get a", "done a",
                        "tracked 0"),
                row("dueItemKeepsItsPlaceAheadOfLaterAdds", "after a 1s", "tick 1s", "add b", "get a", "get b"));
    }

    static Stream<Arguments> priorities() {
        return Stream.of(
                row("highestPriorityFirst", "add a LOW", "add b NORMAL", "add c 10", "get c", "get b", "get a"),
                row("reAddRaisesPriority", "add a LOW", "add b", "add a 10", "get a", "get b"),
                row("reAddNeverLowersPriority", "add a 10", "add b 5", "add a LOW", "get a", "get b"),
                row("raisedPriorityKeepsFifoAtNewLevel", "add a LOW", "add b 5", "add a 5", "get b", "get a"),
                row("delayedItemKeepsHighestPriority", "after a 1s 10", "add b", "after a 5s LOW", "tick 1s",
                        "get a", "get b"),
                row("priorityOfItemReAddedWhileProcessingIsKept", "add a", "get a", "add a 10", "add b 5",
                        "done a", "get a", "get b"),
                row("lowPriorityWaitsWhileYoungerThanThreshold",
                        "add l1 LOW", "tick 9s", "add h1", "add h2", "get h1", "get h2", "get l1"),
                row("starvedLowPriorityIsServedEverySecondGet",
                        "add l1 LOW", "add l2 LOW", "tick 10s", "add h1", "add h2", "add h3", "add h4",
                        "get l1", "get h1", "get l2", "get h2", "get h3", "get h4"),
                row("longestStarvedOfSeveralLowerPrioritiesGoesFirst",
                        "add l1 LOW", "tick 1s", "add m1 -5", "tick 10s", "add h1", "get l1", "get h1", "get m1"),
                row("starvationClockStartsWhenDelayedItemIsDue",
                        "after l1 5s LOW", "tick 14s", "add h1", "add h2", "get h1", "get h2", "get l1"));
    }

    static Stream<Arguments> rateLimiting() {
        return Stream.of(
                row("rateLimitedAddWaitsForTheBackoff", "limited a", "len 0", "tick 5ms", "len 1", "requeues a 1"),
                row("backoffDoublesPerRequeue", "limited a", "tick 5ms", "get a", "done a", "limited a", "tick 9ms",
                        "len 0", "tick 1ms", "len 1", "requeues a 2"),
                row("forgetResetsTheBackoff", "limited a", "limited a", "limited a", "requeues a 3", "forget a",
                        "requeues a 0", "limited a", "tick 5ms", "len 1"),
                row("backoffIsPerItem", "limited a", "limited a", "limited b", "requeues a 2", "requeues b 1"),
                row("getTellsThePriorityAnItemWasQueuedAt", "add a LOW", "add b 10", "get b 10", "get a LOW"),
                row("aRetryKeepsThePriorityItWasHandedOutAt", "add a LOW", "get a LOW", "limited a LOW", "done a",
                        "tick 5ms", "add b", "get b NORMAL", "get a LOW"),
                row("aDelayedRequeueKeepsThePriorityItWasHandedOutAt", "add a LOW", "get a LOW", "after a 1s LOW",
                        "done a", "tick 1s", "add b", "get b", "get a LOW"),
                row("aRetryIsRaisedByANormalAddMeanwhile", "add a LOW", "get a LOW", "limited a LOW", "done a",
                        "add a", "len 1", "get a NORMAL"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"dedupAndProcessing", "shutdown", "delays", "priorities", "rateLimiting"})
    void rule(String name, List<String> steps) throws InterruptedException {
        QueueScript.run(STARVATION, steps);
    }

    private static Arguments row(String name, String... steps) {
        return Arguments.of(name, List.of(steps));
    }
}
