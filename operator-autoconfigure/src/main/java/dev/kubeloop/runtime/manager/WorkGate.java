package dev.kubeloop.runtime.manager;

import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.controller.ReconcileFence;
import java.time.Duration;
import java.util.Optional;

/**
 * Decides when the workers of a running {@link ControllerManager} take work. The manager starts
 * the informers and waits for their caches on every replica, then hands the gate its
 * {@link Workers}; the gate starts and pauses them: at once and for good ({@link #alwaysOpen()}, the
 * default), or only while this replica holds a leader election Lease ({@code dev.kubeloop.leader}).
 *
 * <p>The manager calls the gate in this order: {@link #open} once the caches have synced;
 * {@link #shutdownStarted()} when {@link ControllerManager#stop()} begins, before it stops handing
 * out keys; {@link #close()} after reconciles in flight have drained and before the informers stop,
 * so that a Lease is released only once this replica has stopped acting, and a standby taking over
 * at once never overlaps with it. {@code close} is also called after a failed start, possibly
 * without {@code open}.
 *
 * <p>A gate may also split the work by shards (sharding, {@code dev.kubeloop.sharding}): it then
 * gives the manager a {@link #shardLayout()}, by which the manager splits its caches into buckets
 * whose informers the gate starts and stops ({@link Workers#shards()}), and a {@link #fence()}
 * that admits only the primaries of the buckets this replica holds. Such a gate starts the workers
 * at once; which keys they may reconcile is the fence's business.
 *
 * <p>Implementations are thread-safe: {@link #state()} is read by health and metrics at any time,
 * and the gate calls its {@link Workers} from its own threads. A gate must not call
 * {@link ControllerManager#start()} or {@link ControllerManager#stop()}.
 */
public interface WorkGate {

    /** The caches have synced: start the workers now, or whenever this replica may work. */
    void open(Workers workers);

    /**
     * {@link ControllerManager#stop()} has begun: the workers will drain and stop; the gate must not
     * start them again, and losing leadership from now on is part of the shutdown, not a failure.
     */
    default void shutdownStarted() {
    }

    /** The workers have drained: release what the gate holds (the Lease) and stop its threads. Idempotent. */
    void close();

    /** Whether this replica acts, and why; never null. */
    LeadershipState state();

    /**
     * How the manager splits its caches when this gate shards the work; empty (the default) when
     * it does not. Read once, when the manager is built.
     */
    default Optional<ShardLayout> shardLayout() {
        return Optional.empty();
    }

    /** What every reconcile passes first; read once, when the manager is built. Default: admits everything. */
    default ReconcileFence fence() {
        return ReconcileFence.OPEN;
    }

    /** The ring, when this gate shards the work; empty otherwise. */
    default Optional<ShardingState> sharding() {
        return Optional.empty();
    }

    /** A gate that opens as soon as the caches have synced: every replica works (no leader election). */
    static WorkGate alwaysOpen() {
        return new WorkGate() {
            @Override
            public void open(Workers workers) {
                workers.start();
            }

            @Override
            public void close() {
            }

            @Override
            public LeadershipState state() {
                return LeadershipState.NOT_ELECTED;
            }

            @Override
            public String toString() {
                return "WorkGate.alwaysOpen()";
            }
        };
    }

    /** The manager's workers, as the gate sees them. Thread-safe; calls are serialized by the manager. */
    interface Workers {

        /**
         * Starts every controller's workers and queues every cached primary at low priority (keys
         * queued meanwhile keep their priority). Does nothing while they run, or once the manager
         * is stopping.
         */
        void start();

        /**
         * Stops taking keys at once and interrupts the reconciles in flight, then waits up to
         * {@code grace} for them to end. The queues keep their keys (and keep receiving events) for
         * the next {@link #start()}. Does nothing while the workers are stopped.
         *
         * @return true if every reconcile ended within {@code grace}
         */
        boolean stop(Duration grace);

        /** Whether the workers are taking work. */
        boolean running();

        /** The manager's sharded caches, when the gate gave it a {@link WorkGate#shardLayout()}. */
        default Optional<ShardControl> shards() {
            return Optional.empty();
        }
    }
}
