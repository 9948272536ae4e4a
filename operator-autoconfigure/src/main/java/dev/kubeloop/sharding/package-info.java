/**
 * Sharding on {@code coordination.k8s.io/v1} Leases, as a {@link dev.kubeloop.runtime.manager.WorkGate}:
 * the replicas of an operator form a ring (one Lease per member), split the primaries into buckets
 * among them, and each caches and reconciles the buckets it holds.
 *
 * <p>A bucket's path, from Lease to informer start: {@link dev.kubeloop.sharding.RingWatch} sees
 * the ring's Leases ({@link dev.kubeloop.sharding.MemberLeases}) into a
 * {@link dev.kubeloop.sharding.RingView}; {@link dev.kubeloop.sharding.ShardRing} plans a round
 * (the target from {@link dev.kubeloop.sharding.Assignment}; claim, wait, sync, release);
 * {@link dev.kubeloop.sharding.ShardingGate} writes the claim into this member's Lease, reads the
 * ring back, starts the bucket's informers through the manager's
 * {@link dev.kubeloop.runtime.manager.ShardControl}, and once they listed, opens the bucket in the
 * {@link dev.kubeloop.sharding.BucketFence} that every reconcile passes and queues its keys.
 * {@link dev.kubeloop.sharding.RenewDeadline} closes every bucket, on its own thread, when the
 * Lease was not renewed in time; {@link dev.kubeloop.sharding.SlotLabeler} labels new primaries
 * with their slot, so that bucket informers can select them.
 *
 * <p>Threads: {@code kubeloop-sharding} (the protocol, {@link dev.kubeloop.sharding.ShardingThread}),
 * {@code kubeloop-sharding-fence} (the renew deadline), {@code kubeloop-sharding-labels}.
 *
 * <p>Depends on {@code dev.kubeloop.runtime} (base, cache, controller, manager), the queue's
 * ticker, fabric8 and SLF4J only; no Spring, no Micrometer. Only the auto-configuration uses it.
 */
package dev.kubeloop.sharding;
