package dev.kubeloop.benchmarks.compare.scenario;

import java.time.Duration;

/** Something a scenario waits for: all updates reflected, all objects reconciled. */
@FunctionalInterface
interface Completion {

    /** Waits for it; returns the wall-clock time (epoch nanoseconds) it happened. */
    long await(Duration timeout) throws InterruptedException;
}
