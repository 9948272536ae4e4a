package dev.kubeloop.queue;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * A consistent snapshot of a work queue's gauges, taken under the queue's lock. Immutable.
 *
 * @param depth items queued, including those waiting for their earlier run to finish (client-go's
 *     {@code workqueue_depth})
 * @param depthByPriority {@code depth} split by priority, highest first
 * @param waiting items added with a delay that has not elapsed yet (not part of {@code depth})
 * @param processing items currently held by workers
 * @param unfinishedWorkSeconds the sum of how long every item in processing has been held
 * @param longestRunningProcessorSeconds how long the longest-held item in processing has been held
 */
public record WorkQueueStats(
        int depth,
        Map<Integer, Integer> depthByPriority,
        int waiting,
        int processing,
        double unfinishedWorkSeconds,
        double longestRunningProcessorSeconds) {

    public WorkQueueStats {
        var sorted = new TreeMap<Integer, Integer>(Comparator.reverseOrder());
        sorted.putAll(depthByPriority);
        depthByPriority = Collections.unmodifiableMap(sorted);
    }

    /** True when nothing is queued, waiting or in processing. */
    public boolean idle() {
        return depth == 0 && waiting == 0 && processing == 0;
    }
}
