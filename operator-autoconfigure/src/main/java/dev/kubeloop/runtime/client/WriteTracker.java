package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Read-your-writes for one controller: what each of its writes returned (the object as stored,
 * with its resourceVersion), until the informer delivers that version. A read of an object the
 * controller wrote asks {@link #fresher} and gets the written object while the cache is older than
 * the write; so a reconcile never starts on a cache older than the previous reconcile's own writes
 * (status, finalizer, applied objects), and adding the finalizer never makes the next status write
 * conflict.
 *
 * <p>Limits (documented in docs/writing.md): writes made through the raw client are not tracked;
 * another controller's writes are not seen until its informer delivers them; after a restart the
 * tracker is empty (the informer's first list is newer than anything written before the restart);
 * an entry the informer never confirms (an event filtered by a label selector, an object deleted
 * meanwhile) expires after {@link #MAX_AGE}.
 *
 * <p>Echoes: the events of versions the controller wrote itself are echoes, which trigger no
 * reconcile ({@link #observe}). An event can arrive before the response of the write it echoes;
 * so while a write of an object is on its way ({@link #writing} .. {@link #writeEnded}), its
 * events are held, and delivered (but the echoes) when the write ends.
 *
 * <p>Thread-safety and state ownership: concurrent maps written by the controller's workers (around
 * a write) and by informer threads ({@link #observe}); each {@code Written} entry is immutable, an
 * {@code InFlight} entry is changed only inside the map's {@code compute}. Held deliveries run on
 * the worker thread that ends the last write; they only queue keys. The listener is called from
 * both kinds of threads.
 */
public final class WriteTracker {

    /** How long a write the informer never confirms is remembered. */
    public static final Duration MAX_AGE = Duration.ofSeconds(60);
    /** Bound on remembered writes: past it, the oldest are dropped (the cache has long caught up with them). */
    static final int MAX_ENTRIES = 100_000;

    private final ConcurrentHashMap<Ref, Written> written = new ConcurrentHashMap<>();
    /** Objects with a write on its way, and the events that arrived meanwhile; see {@link #observe}. */
    private final ConcurrentHashMap<Ref, InFlight> inFlight = new ConcurrentHashMap<>();
    private final Listener listener;
    private final boolean substitute;

    /** Where an object lives. */
    public record Ref(Class<?> type, String namespace, String name) {

        public static Ref of(HasMetadata object) {
            return new Ref(object.getClass(), object.getMetadata().getNamespace(), object.getMetadata().getName());
        }
    }

    /**
     * The last write of one object: the object as stored (or, for a delete, as it was last seen),
     * whether it was deleted, when the response came, and the versions this controller wrote that
     * the informer has not delivered yet (their events are echoes of its own writes).
     */
    private record Written(HasMetadata object, boolean deleted, long atNanos, Set<String> echoes) {
        String resourceVersion() {
            return object.getMetadata().getResourceVersion();
        }

        /** This write, after the one before it (whose undelivered versions are still echoes). */
        Written after(Written before) {
            Set<String> all = new HashSet<>(before.echoes);
            all.addAll(echoes);
            return new Written(object, deleted, atNanos, Set.copyOf(all));
        }

        /** The same write, once the informer delivered {@code version}. */
        Written delivered(String version) {
            Set<String> rest = new HashSet<>(echoes);
            rest.remove(version);
            return new Written(object, deleted, atNanos, Set.copyOf(rest));
        }
    }

    /**
     * The writes of one object on their way to the API server, and the events of it that arrived
     * meanwhile: each may be the echo of one of them, which only their responses can tell. Mutated
     * only inside {@code inFlight.compute}, which serializes per object.
     */
    private static final class InFlight {
        int writes;
        final List<Held> held = new ArrayList<>();
    }

    /** An event held back until the writes in flight end: its version, whether it was a delete, its delivery. */
    private record Held(String version, boolean delete, Runnable deliver) {
    }

    /** Hears what read-your-writes does. Fast, thread-safe. */
    public interface Listener {
        /** A read got the controller's own newer write instead of an older cached object ({@code avoided}), or would have. */
        void staleRead(boolean avoided);

        /** The informer delivered a written version {@code lag} after the write's response. */
        void cacheCaughtUp(Duration lag);
    }

    /**
     * @param substitute whether reads get the written object (read-your-writes on); when off, stale
     *     reads are only counted
     */
    public WriteTracker(Listener listener, boolean substitute) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.substitute = substitute;
    }

    /** Remembers what a write returned. */
    public void written(HasMetadata stored) {
        if (stored == null || stored.getMetadata() == null || stored.getMetadata().getResourceVersion() == null) {
            return;
        }
        Ref ref = Ref.of(stored);
        String version = stored.getMetadata().getResourceVersion();
        written.merge(ref, new Written(stored, false, System.nanoTime(), Set.of(version)), (before, after) ->
                ResourceVersions.compare(after.resourceVersion(), before.resourceVersion()) == ResourceVersions.Order.OLDER
                        ? before.after(new Written(before.object(), before.deleted(), before.atNanos(), Set.of(version)))
                        : after.after(before));
        if (written.size() > MAX_ENTRIES) {
            expire();
        }
    }

    /**
     * Remembers that this controller deleted {@code object} (as it saw it last): reads skip it until
     * the informer delivers the delete, so that a reconcile never acts on an object it deleted.
     */
    public void deletedByWrite(HasMetadata object) {
        if (object != null && object.getMetadata() != null && object.getMetadata().getResourceVersion() != null) {
            written.put(Ref.of(object), new Written(object, true, System.nanoTime(), Set.of()));
        }
    }

    /**
     * The object to read for {@code ref}: the written one while the cached one is older than the
     * write (read-your-writes on), else {@code cached}; empty if neither exists, or if this
     * controller deleted the cached version. The caller copies the written object before handing
     * it to code that may modify it.
     */
    @SuppressWarnings("unchecked")
    public <T extends HasMetadata> Optional<T> fresher(Ref ref, T cached) {
        Written write = written.get(ref);
        if (write == null) {
            return Optional.ofNullable(cached);
        }
        if (cached != null) {
            ResourceVersions.Order order = ResourceVersions.compare(cached.getMetadata().getResourceVersion(),
                    write.resourceVersion());
            // a deleted object's cached version is the one deleted: only a newer one (recreated) is current
            if (order == ResourceVersions.Order.SAME && !write.deleted()) {
                // the store has the written version, but fabric8 updates its store before it hands the
                // event to the handlers: the entry stays until observed() sees that event (its echo)
                return Optional.of(cached);
            }
            boolean cacheCaughtUp = order == ResourceVersions.Order.NEWER
                    || (order == ResourceVersions.Order.UNKNOWN && expired(write));
            if (cacheCaughtUp) {
                if (written.remove(ref, write)) {
                    listener.cacheCaughtUp(Duration.ofNanos(System.nanoTime() - write.atNanos()));
                }
                return Optional.of(cached);
            }
        } else if (expired(write) || write.deleted()) {
            if (expired(write)) {
                written.remove(ref, write);
            }
            return Optional.empty();
        }
        listener.staleRead(substitute);
        if (!substitute) {
            return Optional.ofNullable(cached);
        }
        return write.deleted() ? Optional.empty() : Optional.of((T) write.object());
    }

    /**
     * The object this controller's last write of {@code ref} returned, while remembered (the
     * informer has not delivered it, or the type has no informer and the write is younger than
     * {@link #MAX_AGE}); empty with read-your-writes off. Counts nothing.
     */
    public <T extends HasMetadata> Optional<T> lastWritten(Class<T> type, Ref ref) {
        Written write = written.get(ref);
        if (!substitute || write == null || write.deleted() || expired(write) || !type.isInstance(write.object())) {
            return Optional.empty();
        }
        return Optional.of(type.cast(write.object()));
    }

    /**
     * A list read from a cache, as this controller's own writes left it (read-your-writes on): an
     * object it wrote newer than the cached one is replaced by the write (and kept only if the
     * write still {@code matches} the list's criteria: its namespace, index value, labels, owner),
     * one it deleted is left out, and one it wrote that the list lacks (created, or changed to match,
     * but not delivered yet) is added if it matches. {@code cached} is returned as it is when the
     * tracker remembers no write of {@code type}, the common case: the tracker holds few entries,
     * the writes the informers have not delivered yet.
     *
     * @param cached the list from the cache, every element matching the criteria
     * @param matches the list's criteria, tested on written objects only
     * @param lookup the cached object of a ref, or null; asked for the writes the list lacks, since
     *     the cache may hold a newer version of them that does not match
     */
    public <T extends HasMetadata> List<T> merge(Class<T> type, List<T> cached, Predicate<? super T> matches,
            Function<Ref, T> lookup) {
        return merge(type, () -> cached, matches, lookup);
    }

    /**
     * {@link #merge(Class, List, Predicate, Function)} of a list {@code read} after the tracker's
     * writes of {@code type} are taken: the order every reader must keep. Read the cache first and
     * an echo delivered in between is in neither (the cache read missed it, {@link #observed}
     * forgot the write): a reconcile listing the three children it just applied counted two (seen
     * once in CI, ReadYourWritesListsE2ETest). Taken first, a write is either still remembered, or
     * was observed before, when the informer's store already held it for the read that follows.
     */
    public <T extends HasMetadata> List<T> merge(Class<T> type, Supplier<List<T>> read, Predicate<? super T> matches,
            Function<Ref, T> lookup) {
        Map<Ref, Written> ofType = null;
        for (Map.Entry<Ref, Written> entry : written.entrySet()) {
            if (entry.getKey().type().equals(type)) {
                if (ofType == null) {
                    ofType = new HashMap<>();
                }
                ofType.put(entry.getKey(), entry.getValue());
            }
        }
        List<T> cached = read.get();
        if (ofType == null) {
            return cached;
        }
        List<T> result = new ArrayList<>(cached.size() + ofType.size());
        for (T object : cached) {
            Ref ref = Ref.of(object);
            if (ofType.remove(ref) == null) {
                result.add(object);
                continue;
            }
            fresher(ref, object).filter(current -> current == object || matches.test(current)).ifPresent(result::add);
        }
        for (Map.Entry<Ref, Written> entry : ofType.entrySet()) {
            Written write = entry.getValue();
            if (write.deleted() || !matches.test(type.cast(write.object()))) {
                continue; // not in the list as written either: no lookup, no stale read counted
            }
            // written to match, not in the list: created (or changed to match) and not delivered yet, or the
            // cache moved on since (a newer version that no longer matches)
            fresher(entry.getKey(), lookup.apply(entry.getKey())).filter(matches).ifPresent(result::add);
        }
        return result;
    }

    /**
     * The informer delivered {@code object}: a write it confirms is forgotten, and its lag reported.
     *
     * @return true if {@code object} is a version this controller wrote itself (read-your-writes
     *     on): the event is the echo of its own write, which the reconcile that wrote it knew
     */
    public boolean observed(HasMetadata object) {
        if (object == null || object.getMetadata() == null) {
            return false;
        }
        Ref ref = Ref.of(object);
        Written write = written.get(ref);
        if (write == null) {
            return false;
        }
        String version = object.getMetadata().getResourceVersion();
        boolean echo = write.echoes().contains(version);
        ResourceVersions.Order order = ResourceVersions.compare(version, write.resourceVersion());
        boolean confirms = order == ResourceVersions.Order.NEWER
                || (order == ResourceVersions.Order.SAME && !write.deleted());
        if (confirms) {
            if (written.remove(ref, write)) {
                listener.cacheCaughtUp(Duration.ofNanos(System.nanoTime() - write.atNanos()));
            }
        } else if (echo) {
            written.replace(ref, write, write.delivered(version)); // an earlier write of ours, delivered
        }
        return echo && substitute;
    }

    /**
     * The informer saw {@code object} go: nothing of it is worth remembering (a delete of ours is confirmed).
     *
     * @return true if this controller deleted it (read-your-writes on): the event is an echo
     */
    public boolean deleted(HasMetadata object) {
        if (object == null || object.getMetadata() == null) {
            return false;
        }
        Written write = written.remove(Ref.of(object));
        if (write != null && write.deleted()) {
            listener.cacheCaughtUp(Duration.ofNanos(System.nanoTime() - write.atNanos()));
            return substitute;
        }
        return false;
    }

    /**
     * A write of {@code ref} is about to be sent: its response decides whether events of the object
     * arriving meanwhile are its echo. Pair with {@link #writeEnded} in a finally block.
     */
    public void writing(Ref ref) {
        inFlight.compute(ref, (key, flight) -> {
            InFlight current = flight == null ? new InFlight() : flight;
            current.writes++;
            return current;
        });
    }

    /**
     * A write of {@code ref} ended (its result, if any, already recorded with {@link #written} or
     * {@link #deletedByWrite}): once no other write of the object is on its way, the events held
     * meanwhile are delivered, but the echoes of this controller's writes.
     */
    public void writeEnded(Ref ref) {
        List<Held> release = new ArrayList<>();
        inFlight.computeIfPresent(ref, (key, flight) -> {
            flight.writes--;
            if (flight.writes > 0) {
                return flight;
            }
            release.addAll(flight.held);
            return null;
        });
        for (Held held : release) {
            boolean echo = held.delete() ? isDeletedByWrite(ref) : isEcho(ref, held.version());
            if (!echo) {
                held.deliver().run();
            }
        }
    }

    /**
     * The informer delivered an event of {@code object} ({@code delete}: its deletion); what the
     * event asks for is {@code deliver}. Runs {@code deliver} now, or later once the writes of the
     * object in flight have ended, or never if the event is the echo of this controller's own
     * write (read-your-writes on): the reconcile that wrote it knew what it wrote. Also confirms
     * writes, as {@link #observed} and {@link #deleted} do.
     */
    public void observe(HasMetadata object, boolean delete, Runnable deliver) {
        if (delete ? deleted(object) : observed(object)) {
            return;
        }
        if (!substitute || object == null || object.getMetadata() == null) {
            deliver.run();
            return;
        }
        Ref ref = Ref.of(object);
        String version = object.getMetadata().getResourceVersion();
        boolean[] held = {false};
        inFlight.computeIfPresent(ref, (key, flight) -> {
            flight.held.add(new Held(version, delete, deliver));
            held[0] = true;
            return flight;
        });
        // a write that ended between the check above and the hold: its result is recorded now
        if (!held[0] && !(delete ? deleted(object) : observed(object))) {
            deliver.run();
        }
    }

    private boolean isEcho(Ref ref, String version) {
        Written write = written.get(ref);
        if (write == null || !write.echoes().contains(version)) {
            return false;
        }
        ResourceVersions.Order order = ResourceVersions.compare(version, write.resourceVersion());
        if (order == ResourceVersions.Order.SAME && !write.deleted()) {
            if (written.remove(ref, write)) {
                listener.cacheCaughtUp(Duration.ofNanos(System.nanoTime() - write.atNanos()));
            }
        } else {
            written.replace(ref, write, write.delivered(version));
        }
        return true;
    }

    private boolean isDeletedByWrite(Ref ref) {
        Written write = written.get(ref);
        if (write == null || !write.deleted()) {
            return false;
        }
        if (written.remove(ref, write)) {
            listener.cacheCaughtUp(Duration.ofNanos(System.nanoTime() - write.atNanos()));
        }
        return true;
    }

    /** Writes not yet delivered by the informer. */
    public int pending() {
        return written.size();
    }

    private static boolean expired(Written write) {
        return System.nanoTime() - write.atNanos() > MAX_AGE.toNanos();
    }

    /**
     * Drops expired entries and, while the map holds over half its bound, any others: a safety net
     * against unbounded growth (100,000 writes the informers have not delivered means they have
     * stopped), at the price of read-your-writes for the dropped ones.
     */
    private void expire() {
        long now = System.nanoTime();
        for (Iterator<Map.Entry<Ref, Written>> it = written.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Ref, Written> entry = it.next();
            if (now - entry.getValue().atNanos() > MAX_AGE.toNanos() || written.size() > MAX_ENTRIES / 2) {
                it.remove();
            }
        }
    }
}
