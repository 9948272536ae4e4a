package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.Settings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * How a sharded operator splits objects, the one place that says so: every primary falls into one
 * of {@value #SLOTS} <em>slots</em> by the 64-bit FNV-1a hash of its uid (the hash KEP-5866's
 * server-side {@code shardRange} uses), and the slots are grouped into {@link #buckets()}
 * contiguous <em>buckets</em>, the unit the ring assigns to replicas. A bucket is therefore a
 * contiguous range of the hash space, which is what a KEP-5866 shard selector expresses.
 *
 * <p>On servers without KEP-5866 the cache is sharded by a label: the framework writes the slot
 * of each primary into {@link #labelKey()} ({@code shard.kubeloop.dev/<ring>}), and of the primary
 * that owns an object into that object, so owned objects follow their owner. A bucket's informers
 * select {@code <labelKey> in (<its slots>)}. The label holds the slot, not the bucket, so that a
 * different bucket count needs no relabelling, and the key carries the ring's name, so that two
 * sharded operators never cache each other's objects.
 *
 * <p>The slot of an object never changes (its uid does not), so a label written once stays right;
 * a label that someone edits only misroutes the object's cache, never who reconciles it: the
 * reconcile fence checks the slot of the uid. Immutable.
 */
public final class ShardLayout {

    /** Slots in the hash space; buckets are groups of contiguous slots. */
    public static final int SLOTS = 1024;
    /** The prefix of the label key; the ring's name follows it. */
    public static final String LABEL_PREFIX = "shard.kubeloop.dev/";

    private static final int SLOT_BITS = Integer.numberOfTrailingZeros(SLOTS);
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final String ring;
    private final int buckets;
    private final String labelKey;

    /**
     * @param ring the ring's name: a DNS label (it is the name part of the label key)
     * @param buckets how many buckets: a power of two from 1 to {@value #SLOTS}
     */
    public ShardLayout(String ring, int buckets) {
        if (!Settings.isDnsLabel(ring)) {
            throw new IllegalArgumentException("ring name '" + ring + "' is not a DNS label (lower-case letters, "
                    + "digits and '-', at most 63 characters)");
        }
        if (!validBucketCount(buckets)) {
            throw new IllegalArgumentException("buckets must be a power of two from 1 to " + SLOTS + ", was "
                    + buckets);
        }
        this.ring = ring;
        this.buckets = buckets;
        this.labelKey = LABEL_PREFIX + ring;
    }

    /** Whether {@code buckets} is a power of two from 1 to {@value #SLOTS}. */
    public static boolean validBucketCount(int buckets) {
        return buckets >= 1 && buckets <= SLOTS && Integer.bitCount(buckets) == 1;
    }

    public String ring() {
        return ring;
    }

    public int buckets() {
        return buckets;
    }

    /** {@code shard.kubeloop.dev/<ring>}: the label that holds an object's slot. */
    public String labelKey() {
        return labelKey;
    }

    /** The 64-bit FNV-1a hash of {@code text}'s UTF-8 bytes, as KEP-5866's {@code shardRange} computes it. */
    public static long hash(String text) {
        long hash = FNV_OFFSET_BASIS;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /** The slot of an object with this uid: the top bits of its hash. */
    public static int slotOf(String uid) {
        return (int) (hash(Objects.requireNonNull(uid, "uid")) >>> (Long.SIZE - SLOT_BITS));
    }

    /** The bucket of a slot. */
    public int bucketOfSlot(int slot) {
        return slot / slotsPerBucket();
    }

    /** The bucket of an object with this uid. */
    public int bucketOf(String uid) {
        return bucketOfSlot(slotOf(uid));
    }

    /** The bucket a primary belongs to (by its uid, whatever its label says); -1 if it has no uid yet. */
    public int bucketOf(HasMetadata primary) {
        String uid = primary.getMetadata() == null ? null : primary.getMetadata().getUid();
        return uid == null ? -1 : bucketOf(uid);
    }

    /** The first slot of {@code bucket}; its slots are {@code first .. first + slotsPerBucket() - 1}. */
    public int firstSlot(int bucket) {
        checkBucket(bucket);
        return bucket * slotsPerBucket();
    }

    public int slotsPerBucket() {
        return SLOTS / buckets;
    }

    /**
     * The label selector of {@code bucket}'s objects: {@code <labelKey> in (<slots>)}, or just
     * {@code <labelKey>} when one bucket holds every slot.
     */
    public String selector(int bucket) {
        checkBucket(bucket);
        if (buckets == 1) {
            return labelKey;
        }
        StringJoiner slots = new StringJoiner(",", labelKey + " in (", ")");
        for (int slot = firstSlot(bucket); slot < firstSlot(bucket) + slotsPerBucket(); slot++) {
            slots.add(Integer.toString(slot));
        }
        return slots.toString();
    }

    /** The selector of objects that have no slot label yet: {@code !<labelKey>}. */
    public String unlabeledSelector() {
        return "!" + labelKey;
    }

    /**
     * The label an object owned by {@code owner} carries, so that it is cached with its owner: the
     * owner's slot. Empty when the owner has no uid (it was never stored).
     */
    public Map<String, String> labelsFollowing(HasMetadata owner) {
        String uid = owner.getMetadata() == null ? null : owner.getMetadata().getUid();
        return uid == null ? Map.of() : Map.of(labelKey, Integer.toString(slotOf(uid)));
    }

    /** The label a primary with this uid carries. */
    public String slotLabel(String uid) {
        return Integer.toString(slotOf(uid));
    }

    /**
     * The KEP-5866 shard selector of {@code bucket}:
     * {@code shardRange(object.metadata.uid, '0x<start>', '0x<end>')}, the bucket's range of the
     * hash space, end exclusive (the last bucket ends at 2^64, written {@code 0x10000000000000000}).
     */
    public String serverSelector(int bucket) {
        checkBucket(bucket);
        return "shardRange(object.metadata.uid, '" + boundary(bucket) + "', '" + boundary(bucket + 1) + "')";
    }

    private String boundary(int bucket) {
        if (bucket == buckets) {
            return "0x10000000000000000";
        }
        int bits = Integer.numberOfTrailingZeros(buckets);
        long start = bits == 0 ? 0 : (long) bucket << (Long.SIZE - bits); // Java shifts by 64 as by 0
        return String.format("0x%016x", start);
    }

    private void checkBucket(int bucket) {
        if (bucket < 0 || bucket >= buckets) {
            throw new IllegalArgumentException("bucket " + bucket + " is not in 0.." + (buckets - 1));
        }
    }

    @Override
    public String toString() {
        return "ShardLayout[ring=" + ring + ", buckets=" + buckets + "]";
    }
}
