package dev.kubeloop.sharding;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseList;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The ring's Leases on the API server: one per member, named {@code <ring>-<identity>}, labelled
 * {@value #RING_LABEL}{@code =<ring>}, holding the member's identity, its renew time and lease
 * duration, and in annotations the buckets it holds ({@value #HELD}) and the bucket count it splits
 * by ({@value #BUCKETS}). Only its member writes a Lease; everyone reads all of them.
 *
 * <p>Writes are updates locked on the resourceVersion this replica last wrote, so a Lease someone
 * else changed (or deleted) is noticed: a Lease whose holder is no longer this replica is not
 * written over. Lists are consistent reads (from etcd), which is what a claim's read-back needs.
 *
 * <p>State ownership: the last stored Lease is confined to the sharding thread, which makes every
 * call here.
 */
final class MemberLeases {

    static final String RING_LABEL = "sharding.kubeloop.dev/ring";
    static final String HELD = "sharding.kubeloop.dev/held";
    static final String BUCKETS = "sharding.kubeloop.dev/buckets";

    private final KubernetesClient client;
    private final ShardingSettings settings;
    private final Instant joined = Instant.now();
    private Lease stored;

    MemberLeases(KubernetesClient client, ShardingSettings settings) {
        this.client = client;
        this.settings = settings;
    }

    /** The member a Lease describes, if it is a ring member's Lease at all. */
    static Optional<MemberLease> read(Lease lease) {
        if (lease == null || lease.getMetadata() == null || lease.getSpec() == null) {
            return Optional.empty();
        }
        Map<String, String> annotations = lease.getMetadata().getAnnotations() == null ? Map.of()
                : lease.getMetadata().getAnnotations();
        LeaseSpec spec = lease.getSpec();
        try {
            SortedSet<Integer> held = BucketSets.parse(annotations.get(HELD));
            int buckets = Integer.parseInt(annotations.getOrDefault(BUCKETS, "0"));
            Instant renewed = spec.getRenewTime() == null ? null : spec.getRenewTime().toInstant();
            int duration = spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds();
            return Optional.of(new MemberLease(lease.getMetadata().getName(),
                    spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity(), held, buckets, renewed, duration,
                    String.valueOf(lease.getMetadata().getResourceVersion())));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // not written by a member (or tampered with): not part of the ring
        }
    }

    /**
     * Writes this replica's Lease: its identity, now as its renew time, and {@code held}; creates
     * it the first time.
     *
     * @throws KubernetesClientException if the write failed, or the Lease now names another holder
     */
    Lease write(SortedSet<Integer> held, Instant now) {
        if (stored == null) {
            stored = create(held, now);
            return stored;
        }
        try {
            stored = client.leases().inNamespace(settings.namespace()).resource(next(stored, held, now)).update();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                stored = create(held, now); // someone deleted it: this replica is a newcomer again
            } else if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
                stored = updateOver(held, now, e);
            } else {
                throw e;
            }
        }
        return stored;
    }

    /** A consistent read of every Lease of the ring (from etcd: it sees every write committed before it). */
    List<MemberLease> list() {
        List<MemberLease> members = new ArrayList<>();
        LeaseList list = client.leases().inNamespace(settings.namespace()).withLabel(RING_LABEL, settings.ring())
                .list();
        for (Lease lease : list.getItems()) {
            read(lease).ifPresent(members::add);
        }
        return members;
    }

    /** An unstarted informer on the ring's Leases. */
    SharedIndexInformer<Lease> informer() {
        return client.leases().inNamespace(settings.namespace()).withLabel(RING_LABEL, settings.ring())
                .runnableInformer(0);
    }

    /**
     * Leaves the ring: writes an empty holder and no buckets (so that a reader never mistakes the
     * deletion for a crash), then deletes the Lease.
     */
    void leave(Instant now) {
        if (stored == null) {
            return;
        }
        Lease left = next(stored, java.util.Collections.emptySortedSet(), now);
        left.getSpec().setHolderIdentity("");
        stored = client.leases().inNamespace(settings.namespace()).resource(left).update();
        client.leases().inNamespace(settings.namespace()).withName(settings.leaseName()).delete();
        stored = null;
    }

    /**
     * Deletes another member's Lease, unless it changed since {@code lease} was read (a precondition
     * on its resourceVersion): its member is long gone. Another member deleting it first is fine.
     */
    void deleteStale(MemberLease lease) {
        try {
            client.leases().inNamespace(settings.namespace()).withName(lease.name())
                    .lockResourceVersion(lease.resourceVersion()).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND && e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }

    private Lease create(SortedSet<Integer> held, Instant now) {
        Lease lease = new LeaseBuilder().withMetadata(new ObjectMetaBuilder().withName(settings.leaseName())
                .withNamespace(settings.namespace()).addToLabels(RING_LABEL, settings.ring())
                .addToAnnotations(HELD, BucketSets.format(held))
                .addToAnnotations(BUCKETS, Integer.toString(settings.buckets())).build())
                .withNewSpec().withHolderIdentity(settings.identity())
                .withLeaseDurationSeconds((int) settings.leaseDuration().toSeconds())
                .withAcquireTime(joined.atZone(ZoneOffset.UTC)).withRenewTime(now.atZone(ZoneOffset.UTC))
                .withLeaseTransitions(0).endSpec().build();
        return client.leases().inNamespace(settings.namespace()).resource(lease).create();
    }

    /** A 409: someone else wrote the Lease. Written over only if it still names this replica. */
    private Lease updateOver(SortedSet<Integer> held, Instant now, KubernetesClientException conflict) {
        Lease current = client.leases().inNamespace(settings.namespace()).withName(settings.leaseName()).get();
        if (current == null) {
            return create(held, now);
        }
        if (current.getSpec() == null || !settings.identity().equals(current.getSpec().getHolderIdentity())) {
            throw new KubernetesClientException("Lease " + settings.namespace() + "/" + settings.leaseName()
                    + " now names another holder; this replica no longer writes it", conflict);
        }
        return client.leases().inNamespace(settings.namespace()).resource(next(current, held, now)).update();
    }

    private Lease next(Lease from, SortedSet<Integer> held, Instant now) {
        return new LeaseBuilder(from).editMetadata().addToAnnotations(HELD, BucketSets.format(held))
                .addToAnnotations(BUCKETS, Integer.toString(settings.buckets())).addToLabels(RING_LABEL, settings.ring())
                .endMetadata().editSpec().withHolderIdentity(settings.identity())
                .withLeaseDurationSeconds((int) settings.leaseDuration().toSeconds())
                .withRenewTime(now.atZone(ZoneOffset.UTC)).endSpec().build();
    }
}
