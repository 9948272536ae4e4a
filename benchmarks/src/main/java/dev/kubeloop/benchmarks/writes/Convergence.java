package dev.kubeloop.benchmarks.writes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Watches a namespace's Websites (an informer: it re-lists after a dropped watch) and tells when
 * each has converged: {@code status.observedGeneration == metadata.generation}, at or past the
 * generation the harness's own changes lead to. The time a phase ends is when the last Website
 * was seen converged, not when the harness noticed.
 */
final class Convergence implements AutoCloseable {

    private record Seen(long generation, long observedGeneration) {
    }

    private final Map<String, Seen> seen = new HashMap<>();
    private final Map<String, Long> expected = new HashMap<>();
    private final Set<String> pending = new HashSet<>();
    private long lastConvergedNanos;
    private final SharedIndexInformer<GenericKubernetesResource> informer;

    Convergence(Informable<GenericKubernetesResource> websites) {
        this.informer = websites.inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource site) {
                record(site);
            }

            @Override
            public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource site) {
                record(site);
            }

            @Override
            public void onDelete(GenericKubernetesResource site, boolean unknownFinalState) {
            }
        });
    }

    private synchronized void record(GenericKubernetesResource site) {
        String name = site.getMetadata().getName();
        long generation = site.getMetadata().getGeneration() == null ? 0 : site.getMetadata().getGeneration();
        Object observed = site.get("status", "observedGeneration");
        Seen now = new Seen(generation, observed instanceof Number number ? number.longValue() : -1);
        seen.put(name, now);
        if (pending.contains(name) && converged(name, now)) {
            pending.remove(name);
            lastConvergedNanos = System.nanoTime();
            notifyAll();
        }
    }

    private boolean converged(String name, Seen now) {
        return now.observedGeneration() == now.generation() && now.generation() >= expected.getOrDefault(name, 1L);
    }

    /** From now on, waits for {@code name} to converge at {@code generation} or later. */
    synchronized void expect(String name, long generation) {
        expected.put(name, generation);
        Seen now = seen.get(name);
        if (now == null || !converged(name, now)) {
            pending.add(name);
        }
    }

    /** Waits until every expected Website converged; returns {@link System#nanoTime()} of the last one. */
    synchronized long await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pending.isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new IllegalStateException(pending.size() + " Websites not converged within " + timeout
                        + ", e.g. " + pending.iterator().next() + " " + seen.get(pending.iterator().next()));
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return lastConvergedNanos;
    }

    @Override
    public void close() {
        informer.close();
    }
}
