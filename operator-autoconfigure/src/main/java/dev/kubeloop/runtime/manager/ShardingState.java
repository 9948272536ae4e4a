package dev.kubeloop.runtime.manager;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

/**
 * What a sharded replica reports about its ring, for health, metrics and {@code /actuator/kubeloop}:
 * who is in the ring and what each member holds, what this replica holds and should hold, the
 * handoffs under way, and counts since start. A snapshot; immutable.
 *
 * @param ring the ring's name
 * @param namespace the namespace of the ring's Leases
 * @param identity this replica's identity in the ring
 * @param buckets how many buckets the ring splits the objects into
 * @param inRing whether this replica is a member now: its Lease is renewed within the renew deadline
 * @param since when {@code inRing} last changed
 * @param members every member this replica sees, itself included, by identity
 * @param held the buckets this replica reconciles now
 * @param target the buckets the ring's assignment gives this replica
 * @param handoffs the buckets being handed to or from this replica now
 * @param rebalances how often the ring's membership changed since start, as this replica saw it
 * @param handoffsIn buckets this replica took over since start, and how long that took in all
 * @param handoffsOut buckets this replica gave away since start, and how long their drains took in all
 * @param objects the primaries this replica caches now, by controller: its share
 * @param labelsWritten primaries this replica gave their slot label since start
 * @param cacheSharding how the cache is split: {@code labels} (the framework's slot label) or
 *     {@code server} (the API server's sharded list and watch, KEP-5866)
 */
public record ShardingState(String ring, String namespace, String identity, int buckets, boolean inRing,
        Instant since, List<Member> members, SortedSet<Integer> held, SortedSet<Integer> target,
        List<Handoff> handoffs, long rebalances, Handoffs handoffsIn, Handoffs handoffsOut,
        Map<String, Integer> objects, long labelsWritten, String cacheSharding) {

    public ShardingState {
        Objects.requireNonNull(ring, "ring");
        members = List.copyOf(members);
        handoffs = List.copyOf(handoffs);
        objects = Map.copyOf(objects);
    }

    /** The same state once this replica lost its place in the ring at {@code at}: it holds and targets nothing. */
    public ShardingState outOfRing(Instant at) {
        return new ShardingState(ring, namespace, identity, buckets, false, at, members,
                java.util.Collections.emptySortedSet(), java.util.Collections.emptySortedSet(), List.of(), rebalances,
                handoffsIn, handoffsOut, objects, labelsWritten, cacheSharding);
    }

    /** How many members are live, as this replica sees them. */
    public long liveMembers() {
        return members.stream().filter(Member::live).count();
    }

    /**
     * This state as plain maps, lists, strings and numbers, for {@code /actuator/kubeloop} and
     * health: the ring and its members, this replica's share (buckets and cached objects) and the
     * handoffs in flight and done.
     */
    public Map<String, Object> describe() {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("ring", namespace + "/" + ring);
        body.put("identity", identity);
        body.put("inRing", inRing);
        body.put("since", since == null ? null : since.toString());
        body.put("buckets", buckets);
        body.put("cache", cacheSharding);
        body.put("held", List.copyOf(held));
        body.put("target", List.copyOf(target));
        body.put("objects", objects);
        List<Map<String, Object>> ringMembers = new java.util.ArrayList<>();
        for (Member member : members) {
            Map<String, Object> entry = new java.util.LinkedHashMap<>();
            entry.put("identity", member.identity());
            entry.put("live", member.live());
            entry.put("held", List.copyOf(member.held()));
            entry.put("renewTime", member.renewTime() == null ? null : member.renewTime().toString());
            ringMembers.add(entry);
        }
        body.put("members", ringMembers);
        List<Map<String, Object>> moving = new java.util.ArrayList<>();
        for (Handoff handoff : handoffs) {
            moving.add(Map.of("bucket", handoff.bucket(), "direction", handoff.direction().name(), "phase",
                    handoff.phase(), "since", handoff.since().toString()));
        }
        body.put("handoffs", moving);
        body.put("rebalances", rebalances);
        body.put("handoffsIn", Map.of("count", handoffsIn.count(), "totalSeconds", seconds(handoffsIn.total()),
                "longestSeconds", seconds(handoffsIn.longest())));
        body.put("handoffsOut", Map.of("count", handoffsOut.count(), "totalSeconds", seconds(handoffsOut.total()),
                "longestSeconds", seconds(handoffsOut.longest())));
        body.put("labelsWritten", labelsWritten);
        return body;
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /**
     * A member of the ring as this replica sees it.
     *
     * @param identity its identity
     * @param live whether its Lease is current (renewed within the lease duration, as observed here)
     * @param held the buckets its Lease says it holds
     * @param renewTime its last renewal, as its Lease records it
     */
    public record Member(String identity, boolean live, SortedSet<Integer> held, Instant renewTime) {
    }

    /** Which way a bucket moves. */
    public enum Direction {
        /** To this replica: waiting for the previous holder, claiming, or listing. */
        IN,
        /** From this replica: draining the reconciles in flight, then releasing. */
        OUT
    }

    /**
     * One bucket on the move.
     *
     * @param bucket the bucket
     * @param direction to or from this replica
     * @param phase where it stands: {@code waiting} (for the previous holder to release it or to
     *     expire), {@code syncing} (claimed, its informers list), {@code draining} (closed here,
     *     reconciles in flight ending)
     * @param since when the handoff began here
     */
    public record Handoff(int bucket, Direction direction, String phase, Instant since) {
    }

    /**
     * Completed handoffs in one direction.
     *
     * @param count how many
     * @param total how long they took together
     * @param longest the longest of them
     */
    public record Handoffs(long count, Duration total, Duration longest) {

        public static final Handoffs NONE = new Handoffs(0, Duration.ZERO, Duration.ZERO);

        public Handoffs plus(Duration took) {
            return new Handoffs(count + 1, total.plus(took), took.compareTo(longest) > 0 ? took : longest);
        }
    }
}
