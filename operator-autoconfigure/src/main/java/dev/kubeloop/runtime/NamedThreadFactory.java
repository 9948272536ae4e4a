package dev.kubeloop.runtime;

import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names threads {@code <prefix><n>} (n from 1), so a thread dump shows which controller a worker
 * belongs to. Threads are daemons: a forgotten stop must not keep the JVM alive; Kubeloop still
 * shuts every executor down explicitly. Public for the leader election package. Thread-safe.
 */
public final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger next = new AtomicInteger(1);

    /** Threads named {@code prefix1}, {@code prefix2}, ... */
    public static NamedThreadFactory numbered(String prefix) {
        return new NamedThreadFactory(prefix);
    }

    private NamedThreadFactory(String prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    @Override
    public Thread newThread(Runnable runnable) {
        Thread thread = new Thread(runnable, prefix + next.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    }

    /**
     * A single-threaded scheduler whose thread has exactly this name; cancelled tasks leave its
     * queue at once (a timer re-armed at every renewal must not pile cancelled ones up).
     */
    public static ScheduledThreadPoolExecutor scheduler(String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                runnable -> single(name, runnable));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** One thread with exactly this name, for single-threaded executors. */
    public static Thread single(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
