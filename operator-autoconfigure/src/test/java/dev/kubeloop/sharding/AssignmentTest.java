package dev.kubeloop.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The assignment of buckets to members, property by property, over random sequences of joins and
 * leaves (seeded, so that a failure replays): every bucket has one member, loads differ by at most
 * one, a join or a leave moves what it must and at most one bucket more, and a half-done handoff
 * does not change where buckets go.
 */
class AssignmentTest {

    private static final int STEPS = 1_000;

    @ParameterizedTest(name = "{0} buckets, seed {1}")
    @CsvSource({"32, 1", "32, 2", "64, 3", "256, 4", "1024, 5", "8, 6"})
    void aThousandJoinsAndLeavesKeepTheRingBalancedAndMoveOnlyWhatTheyMust(int buckets, long seed) {
        Random random = new Random(seed);
        List<String> members = new ArrayList<>(List.of("replica-0", "replica-1", "replica-2"));
        int next = 3;
        Map<Integer, String> holders = settle(buckets, members, Map.of());
        long moved = 0;
        long ideal = 0;
        int joins = 0;
        int leaves = 0;
        for (int step = 0; step < STEPS; step++) {
            boolean join = members.size() == 1 || members.size() < Math.min(buckets, 24) && random.nextBoolean();
            String changed;
            if (join) {
                changed = "replica-" + next++ + "-" + Long.toHexString(random.nextLong());
                members.add(changed);
                joins++;
            } else {
                changed = members.remove(random.nextInt(members.size()));
                leaves++;
            }
            Map<Integer, String> after = settle(buckets, members, holders);

            assertBalanced(buckets, members, after);
            int movedNow = 0;
            for (int bucket = 0; bucket < buckets; bucket++) {
                if (!after.get(bucket).equals(holders.get(bucket))) {
                    movedNow++;
                }
            }
            // a join must give the newcomer its share, a leave must rehome the leaver's buckets
            long must = join ? count(after, changed) : count(holders, changed);
            assertThat(movedNow).as("step %d (%s %s, %d members): buckets moved", step, join ? "join" : "leave",
                    changed, members.size()).isBetween((int) must, (int) must + 1);
            for (String member : members) {
                if (member.equals(changed)) {
                    continue;
                }
                Set<Integer> gained = new TreeSet<>(bucketsOf(after, member));
                gained.removeAll(bucketsOf(holders, member));
                Set<Integer> lost = new TreeSet<>(bucketsOf(holders, member));
                lost.removeAll(bucketsOf(after, member));
                if (join) {
                    assertThat(gained).as("step %d: a join gives %s at most the one bucket a quota change may",
                            step, member).hasSizeLessThanOrEqualTo(1);
                } else {
                    assertThat(lost).as("step %d: a leave takes from %s at most the one bucket a quota change may",
                            step, member).hasSizeLessThanOrEqualTo(1);
                }
            }
            moved += movedNow;
            ideal += must;
            holders = after;
        }
        assertThat(joins).isGreaterThan(STEPS / 4);
        assertThat(leaves).isGreaterThan(STEPS / 4);
        assertThat((double) moved / ideal).as("buckets moved over the ideal, all steps").isLessThan(1.05);
    }

    @Test
    void aHandoffHalfDoneLeadsToTheSameAssignment() {
        List<String> three = List.of("a", "b", "c");
        Map<Integer, String> before = settle(32, three, Map.of());
        List<String> four = List.of("a", "b", "c", "d");
        Map<Integer, String> target = settle(32, four, before);
        List<Integer> moving = new ArrayList<>(bucketsOf(target, "d"));
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            // every moving bucket is still with its giver, released (free), or already claimed by the newcomer
            Map<Integer, String> midway = new HashMap<>(before);
            for (int bucket : moving) {
                switch (random.nextInt(3)) {
                    case 0 -> midway.remove(bucket);
                    case 1 -> midway.put(bucket, "d");
                    default -> {
                        // not released yet
                    }
                }
            }
            assertThat(settle(32, four, midway)).as("midway %s", midway).isEqualTo(target);
        }
    }

    @Test
    void theResultDoesNotDependOnTheOrderMembersAreListedIn() {
        List<String> members = new ArrayList<>(List.of("e", "a", "d", "b", "c"));
        Map<Integer, String> holders = settle(64, members, Map.of());
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(members, new Random(i));
            assertThat(settle(64, members, holders)).isEqualTo(holders);
            assertThat(settle(64, members, Map.of())).isEqualTo(holders);
        }
    }

    @Test
    void aMemberThatLeftHoldsNothingAndItsBucketsAreFree() {
        Map<Integer, String> holders = settle(16, List.of("a", "b"), Map.of());
        Map<String, SortedSet<Integer>> alone = Assignment.assign(16, List.of("a"), holders);
        assertThat(alone.get("a")).hasSize(16);
        assertThat(Assignment.assign(16, List.of(), holders)).isEmpty();
    }

    @Test
    void moreMembersThanBucketsLeaveTheLastOnesIdle() {
        List<String> members = List.of("a", "b", "c", "d", "e", "f");
        Map<String, SortedSet<Integer>> assigned = Assignment.assign(4, members, Map.of());
        IntSummaryStatistics loads = assigned.values().stream().mapToInt(SortedSet::size).summaryStatistics();
        assertThat(loads.getSum()).isEqualTo(4);
        assertThat(loads.getMax()).isEqualTo(1);
        assertThat(assigned.keySet()).containsExactlyInAnyOrderElementsOf(members);
    }

    /** The assignment from {@code holders}, as a map bucket → member. */
    private static Map<Integer, String> settle(int buckets, List<String> members, Map<Integer, String> holders) {
        Map<Integer, String> result = new HashMap<>();
        Assignment.assign(buckets, members, holders).forEach((member, owned) -> owned.forEach(bucket -> {
            String previous = result.put(bucket, member);
            assertThat(previous).as("bucket %d given twice", bucket).isNull();
        }));
        return result;
    }

    private static void assertBalanced(int buckets, List<String> members, Map<Integer, String> assigned) {
        assertThat(assigned).as("every bucket has a member").hasSize(buckets);
        assertThat(members).containsAll(assigned.values());
        IntSummaryStatistics loads = members.stream().mapToInt(member -> (int) count(assigned, member))
                .summaryStatistics();
        assertThat(loads.getMax() - loads.getMin()).as("loads %s", loads).isLessThanOrEqualTo(1);
    }

    private static long count(Map<Integer, String> assigned, String member) {
        return assigned.values().stream().filter(member::equals).count();
    }

    private static Set<Integer> bucketsOf(Map<Integer, String> assigned, String member) {
        Set<Integer> owned = new TreeSet<>();
        assigned.forEach((bucket, holder) -> {
            if (holder.equals(member)) {
                owned.add(bucket);
            }
        });
        return owned;
    }
}
