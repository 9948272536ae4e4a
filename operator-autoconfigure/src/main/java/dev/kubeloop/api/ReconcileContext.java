package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * What a reconcile may use besides the object itself. One context per reconcile call; it must not
 * be kept after the call returns. Reads come from the informer caches (no API request); writes go
 * through {@link #apply}, {@link #applyStatus} and {@link #updateStatus}, which the next reconcile
 * reads back even before the informer delivers them (read-your-writes), or through
 * {@link #client()} for anything else.
 *
 * <p>The object passed to {@code reconcile} and {@code cleanup} is a private copy and may be
 * modified. Objects returned by {@link #owned} and {@link #cached} are the caches' own instances,
 * shared with every controller: read them, never modify them (copy first, e.g. with
 * {@code client().getKubernetesSerialization().clone(object)}).
 *
 * @param <T> the primary resource type
 */
public interface ReconcileContext<T extends HasMetadata> {

    /** The name of the reconciler, as used in logs, metrics and properties. */
    String controllerName();

    /** The key of the object being reconciled. */
    ObjectKey key();

    /** How many times in a row this key has been retried after an error or {@link Result#requeue()}; 0 on the first try. */
    int retryCount();

    /** The client for writes and for reads that the caches do not cover. */
    KubernetesClient client();

    /**
     * The cached objects of {@code type} whose controller owner reference points at the object being
     * reconciled (matching uid). {@code type} must be listed in {@link Reconciler#owns()}.
     */
    <R extends HasMetadata> List<R> owned(Class<R> type);

    /**
     * A cached object of a type this reconciler caches (primary, owned or watched), by key: a
     * shared, read-only instance. For the object being reconciled, use the reconcile's parameter,
     * which is a private copy.
     */
    <R extends HasMetadata> Optional<R> cached(Class<R> type, ObjectKey key);

    /**
     * Read access to all of this reconciler's caches (primary, owned and watched types) and the
     * indexes it declared, e.g. {@code caches().byIndex(Website.class, "spec.tls.secretName",
     * namespace, "db-creds")}. Shared, read-only instances. Like {@link #owned} and {@link #cached},
     * every read includes this reconciler's own writes (a list has the objects it just created, not
     * those it deleted), before the informer delivers them.
     */
    CacheReader caches();

    /**
     * Writes {@code desired} with server-side apply, as this controller's field manager (its name),
     * forcing conflicts with other managers, and returns the object the API server stored.
     *
     * <ul>
     *   <li>For a type the reconciler owns, the controller owner reference to the primary is added
     *       when missing (same namespace only: a namespaced owner cannot own objects elsewhere,
     *       which fails with a {@link TerminalException}), and the label
     *       {@code kubeloop.dev/applied-by=<controller>}, which pruning follows (see
     *       {@link ApplyOptions#retain()} for children that accumulate, one per run).
     *   <li>Nothing is sent when this controller applied the same object before and it has not
     *       changed since (the cached resourceVersion is the one that apply returned): a
     *       steady-state reconcile writes nothing.
     *   <li>A Normal event on the primary says what happened: {@code Created}, {@code Updated}
     *       (the desired object changed) or {@code Repaired} (someone else changed it).
     *   <li>The next reconcile reads what this one wrote, even before the informer delivers it.
     * </ul>
     *
     * Forcing: a controller owns what it applies; another manager's conflicting value (a
     * {@code kubectl edit}, say) is drift to repair, and without force the apply would fail with a
     * 409 until a human removed that manager's ownership. Fields no manager but this one owns and
     * that this apply leaves out are removed, as server-side apply does. Entries of a list merged
     * by key that another manager set stay; when they make the object invalid (an edited port: two
     * unnamed ports), the 422's message names them and their manager (see
     * {@link ApplyOptions#removeStaleEntries()}).
     */
    <R extends HasMetadata> R apply(R desired);

    /**
     * {@link #apply(HasMetadata)} with other options: another field manager, not owned, retained
     * (never pruned), or replacing stale list entries.
     */
    <R extends HasMetadata> R apply(R desired, ApplyOptions options);

    /**
     * Writes {@code resource}'s status with server-side apply on the {@code /status} subresource, as
     * this controller's field manager, and returns the object the API server stored. Locked on the
     * newest version of the object this reconcile knows (the one it started from, moved on by its
     * own writes, or {@code resource}'s if newer): a status never lands on an object that changed
     * since, such as a newer spec or a write by a replica that took the object over while this one
     * was paused. Such a 409 is not an error: the runtime requeues the key quietly and the next
     * reconcile sees the newer object. Nothing is sent when the cached status already equals it.
     */
    T applyStatus(T resource);

    /**
     * Writes {@code resource}'s status through the {@code /status} subresource, locked on its
     * resourceVersion (a JSON patch replacing {@code /status}, which can remove fields), for
     * reconcilers that want the status replaced whole; {@link #applyStatus} is the default way. A 409 conflict (someone changed the object
     * meanwhile) is not an error: the runtime requeues the key quietly and the next reconcile sees
     * the newer object.
     */
    T updateStatus(T resource);

    /** Records Kubernetes Events about objects. */
    EventRecorder events();

    /**
     * A logger for the reconciler. While the reconcile runs, the SLF4J MDC holds {@code controller},
     * {@code key} and {@code reconcileID}, so every log line of the call can be traced.
     */
    Logger log();
}
