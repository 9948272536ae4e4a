package dev.kubeloop.testing;

import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.manager.ControllerObserver;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An observer whose work-queue hook throws an {@link AssertionError} once, when armed: an Error
 * escapes a worker's loop and ends that worker thread, which is how tests make "a worker died"
 * happen. Armed from the start unless built with {@link #disarmed()}.
 */
public final class WorkerKiller implements ControllerObserver {

    private final AtomicBoolean armed;
    private final String message;

    private WorkerKiller(boolean armed, String message) {
        this.armed = new AtomicBoolean(armed);
        this.message = message;
    }

    /** Kills the first worker that finishes a key. */
    public static WorkerKiller once(String message) {
        return new WorkerKiller(true, message);
    }

    /** Kills a worker only after {@link #arm()}. */
    public static WorkerKiller disarmed(String message) {
        return new WorkerKiller(false, message);
    }

    /** The next worker to finish a key dies. */
    public void arm() {
        armed.set(true);
    }

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        return new ControllerListener() {
            @Override
            public void done(long workNanos) {
                if (armed.compareAndSet(true, false)) {
                    throw new AssertionError(message);
                }
            }
        };
    }
}
