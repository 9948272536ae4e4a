package dev.kubeloop.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Shared by the reconcilers of several replicas in one test: records who reconciles which key
 * when, and every time two replicas were inside a reconcile of the same key at once. Thread-safe.
 */
public final class FencingRegister {

    /** One reconcile: which replica, which key at which generation, when (System.nanoTime()). */
    public record Visit(String replica, String key, long generation, long startNanos, long endNanos) {
    }

    private final Map<String, String> inside = new ConcurrentHashMap<>();
    private final List<String> overlaps = new CopyOnWriteArrayList<>();
    private final List<Visit> visits = new CopyOnWriteArrayList<>();

    /** Called first thing in a reconcile; returns the start time for {@link #leave}. */
    public long enter(String replica, String key) {
        String other = inside.putIfAbsent(key, replica);
        if (other != null) {
            overlaps.add(key + " reconciled by " + replica + " while " + other + " was reconciling it");
        }
        return System.nanoTime();
    }

    /** Called last thing in a reconcile (in a finally block). */
    public void leave(String replica, String key, long generation, long startNanos) {
        visits.add(new Visit(replica, key, generation, startNanos, System.nanoTime()));
        inside.remove(key, replica);
    }

    public List<String> overlaps() {
        return List.copyOf(overlaps);
    }

    public List<Visit> visits() {
        return List.copyOf(visits);
    }

    /** The visits of one replica. */
    public List<Visit> visitsBy(String replica) {
        return visits.stream().filter(visit -> visit.replica().equals(replica)).toList();
    }

    /**
     * Pairs of visits of one key by different replicas whose time spans intersect; checks the
     * recorded spans, independently of {@link #overlaps()}.
     */
    public List<String> intersectingVisits() {
        List<String> found = new ArrayList<>();
        List<Visit> all = visits();
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                Visit a = all.get(i);
                Visit b = all.get(j);
                if (a.key().equals(b.key()) && !a.replica().equals(b.replica()) && a.startNanos() < b.endNanos()
                        && b.startNanos() < a.endNanos()) {
                    found.add(a + " and " + b);
                }
            }
        }
        return found;
    }
}
