package dev.kubeloop.leader;

import dev.kubeloop.runtime.FailureReason;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.net.HttpURLConnection;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's {@link LeaseLock}, unchanged in what it writes and how it locks (a JSON merge patch
 * carrying the resourceVersion it read), with three additions that one {@code LeaderElector} term
 * needs:
 *
 * <ul>
 *   <li><b>Observed writes.</b> Every successful write is reported, so that {@link LeaderElection}
 *       enforces the renew deadline from the last renewal it knows succeeded, on a timer of its
 *       own: fabric8 checks the deadline only between attempts, and an API call that hangs would
 *       let it act past the deadline.
 *   <li><b>Fencing.</b> Once {@link #fence() fenced} (the term lost the Lease or was replaced),
 *       reads, creates and updates fail with a 409 before reaching the API server, so a term that
 *       is being cancelled can neither renew nor release a Lease that a newer term of this replica
 *       holds (nor read it first: fabric8 logged a failed read there at ERROR with its trace; a 409
 *       it takes for "leadership already lost", at DEBUG).
 *   <li><b>A release that releases.</b> fabric8 7.8 releases by writing a record whose holder is
 *       null; serialised without nulls, the merge patch leaves {@code holderIdentity} as it was, and
 *       others wait a further second. An empty holder is written instead, as client-go does, which
 *       everyone reads as "free now".
 * </ul>
 *
 * <p>Any other runtime exception from the client is rethrown as a
 * {@link KubernetesClientException}, which fabric8's loops retry; anything else would end them
 * silently. fabric8 logs every failed attempt with its whole stack trace (the auto-configuration
 * turns that logger down to ERROR, see {@code KubeloopLoggingDefaults}); this lock logs one line
 * when its Lease requests start failing, with the reason, and one when they succeed again (the
 * trace at DEBUG). A fenced term's refusals are not failures and are not logged.
 *
 * <p>Thread-safety: the delegate is synchronized, {@code fenced} and {@code failing} are
 * volatile; fabric8 calls one term's lock from one loop at a time.
 */
final class ObservedLeaseLock implements Lock {

    private static final Logger log = LoggerFactory.getLogger(ObservedLeaseLock.class);

    private final LeaseLock delegate;
    private final Consumer<LeaderElectionRecord> written;
    private volatile boolean fenced;
    /** Whether the last Lease request failed: only the first of a streak and the recovery are logged. */
    private volatile boolean failing;

    ObservedLeaseLock(LeaseLock delegate, Consumer<LeaderElectionRecord> written) {
        this.delegate = delegate;
        this.written = written;
    }

    /** No write of this lock reaches the API server from now on. */
    void fence() {
        fenced = true;
    }

    boolean fenced() {
        return fenced;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
        // a fenced term does not even read: fabric8's release on cancel would log a failed read at ERROR
        checkNotFenced();
        return call(() -> delegate.get(client));
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
        checkNotFenced();
        call(() -> {
            delegate.create(client, releasing(record));
            return null;
        });
        written.accept(record);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
        checkNotFenced();
        call(() -> {
            delegate.update(client, releasing(record));
            return null;
        });
        written.accept(record);
    }

    @Override
    public String identity() {
        return delegate.identity();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    private void checkNotFenced() {
        if (fenced) {
            // 409: fabric8 treats it as "leadership already lost" and logs it at debug level only
            throw new KubernetesClientException("this leader election term has ended; it no longer writes the Lease",
                    HttpURLConnection.HTTP_CONFLICT, null);
        }
    }

    /** A null holder written as an empty one, so that the merge patch clears it. */
    private static LeaderElectionRecord releasing(LeaderElectionRecord record) {
        if (record.getHolderIdentity() != null) {
            return record;
        }
        return new LeaderElectionRecord("", record.getLeaseDuration(), record.getAcquireTime(), record.getRenewTime(),
                record.getLeaderTransitions());
    }

    private <R> R call(Supplier<R> request) {
        R result;
        try {
            result = request.get();
        } catch (RuntimeException e) {
            if (!fenced) {
                failed(e);
            }
            throw e instanceof KubernetesClientException known ? known
                    : new KubernetesClientException("Lease request failed: " + e, e);
        }
        if (failing) {
            failing = false;
            log.info("Lease requests succeed again: lease={} identity={}", delegate.describe(), identity());
        }
        return result;
    }

    private void failed(RuntimeException e) {
        if (!failing) {
            failing = true;
            log.warn("Lease requests are failing, retrying until the renew deadline (if leading) or the next "
                    + "attempt: lease={} identity={}: {}", delegate.describe(), identity(), FailureReason.of(e));
        }
        log.debug("Lease request failed: lease={} identity={}", delegate.describe(), identity(), e);
    }
}
