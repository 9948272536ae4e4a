package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a member sees the ring: a watch on the ring's Leases feeding its {@link RingView}, a list
 * once per retry period on top of it (a watch that broke and is backing off must not leave the
 * member planning on a stale ring for long: one small list per member per retry period), and the
 * deletion of Leases left by members gone for {@value #STALE_LEASE_DURATIONS} lease durations.
 *
 * <p>State ownership: everything here, the view included, is confined to the sharding thread;
 * the watch's events reach the view through {@link ShardingThread#run}.
 */
final class RingWatch {

    private static final Logger log = LoggerFactory.getLogger(ShardingGate.class);
    private static final long NEVER_LISTED = Long.MIN_VALUE;
    /**
     * A Lease unchanged for this many lease durations belongs to a member long gone (SIGKILLed with
     * a random identity, it never comes back): any member deletes it, so that the ring does not
     * grow with every crash.
     */
    static final int STALE_LEASE_DURATIONS = 4;

    private final MemberLeases leases;
    private final RingView view;
    private final ShardingSettings settings;
    private final Ticker ticker;
    private SharedIndexInformer<Lease> watch;
    private long lastList = NEVER_LISTED;

    RingWatch(MemberLeases leases, RingView view, ShardingSettings settings, Ticker ticker) {
        this.leases = leases;
        this.view = view;
        this.settings = settings;
        this.ticker = ticker;
    }

    /** On the sharding thread: starts the watch; each change, and the first list, asks for a round. */
    void start(ShardingThread thread) {
        watch = leases.informer();
        watch.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease lease) {
                changed(thread, lease, false);
            }

            @Override
            public void onUpdate(Lease before, Lease lease) {
                changed(thread, lease, false);
            }

            @Override
            public void onDelete(Lease lease, boolean unknownState) {
                changed(thread, lease, true);
            }
        });
        watch.start().whenComplete((ignored, error) -> {
            if (error != null) {
                log.warn("Cannot watch the ring's Leases ({}): this replica sees the ring only through its own "
                        + "reads. Grant list and watch on leases: ring={}", error.toString(), settings.describe());
            }
            thread.requestRound();
        });
    }

    /** A ring Lease changed (on the informer's thread): record it and plan again. */
    private void changed(ShardingThread thread, Lease lease, boolean deleted) {
        long now = ticker.read();
        thread.run(() -> {
            if (deleted) {
                view.deleted(lease.getMetadata().getName(), now);
            } else {
                MemberLeases.read(lease).ifPresent(member -> view.update(member, now));
            }
        });
        thread.requestRound();
    }

    /** On the sharding thread: lists the ring if a retry period passed since the last list. */
    void refresh(RenewDeadline deadline) {
        long now = ticker.read();
        if (lastList == NEVER_LISTED || now - lastList >= settings.retryPeriod().toNanos()) {
            list(deadline, now);
        }
    }

    private void list(RenewDeadline deadline, long now) {
        try {
            List<MemberLease> all = deadline.call(leases::list);
            lastList = now;
            view.listed(all, ticker.read());
        } catch (RuntimeException e) {
            log.debug("Could not list the ring's Leases: ring={}: {}", settings.describe(), e.getMessage());
            return;
        }
        long staleAfter = settings.leaseDuration().multipliedBy(STALE_LEASE_DURATIONS).toNanos();
        for (MemberLease stale : view.stale(ticker.read(), staleAfter)) {
            try {
                deadline.call(() -> {
                    leases.deleteStale(stale);
                    return null;
                });
                log.info("Deleted the Lease of a member gone for {} lease durations: ring={} identity={} lease={}",
                        STALE_LEASE_DURATIONS, settings.describe(), settings.identity(), stale.name());
            } catch (RuntimeException e) {
                log.debug("Could not delete the stale Lease {}: ring={}: {}", stale.name(), settings.describe(),
                        e.getMessage());
            }
        }
    }

    /** On the sharding thread, at close. */
    void stop() {
        if (watch != null) {
            watch.stop();
        }
    }
}
