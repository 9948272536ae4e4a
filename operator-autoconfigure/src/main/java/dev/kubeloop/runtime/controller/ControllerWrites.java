package dev.kubeloop.runtime.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.runtime.cache.OwnerIndex;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.client.AppliedState;
import dev.kubeloop.runtime.client.ResourceCopies;
import dev.kubeloop.runtime.client.ResourceVersions;
import dev.kubeloop.runtime.client.ServerSideApply;
import dev.kubeloop.runtime.client.StatusWriter;
import dev.kubeloop.runtime.client.WriteTracker;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes one controller makes through its reconcile contexts: server-side apply of objects and
 * of the primary's status, the locked status patch, and pruning; with read-your-writes (every write
 * is remembered by the {@link WriteTracker} until the informer delivers it) and no-op detection
 * (nothing is sent when it would change nothing).
 *
 * <p>No-op detection for {@code apply}: for each object and field manager, the fingerprint of the
 * last apply: a hash of its body, the resourceVersion it returned, and a hash of the object as
 * stored then, without its status and bookkeeping (resourceVersion, managedFields). When the same
 * body is applied again, the apply is skipped if the object is unchanged since for this manager:
 * at the same version; or still carrying every field of the body ({@link AppliedState}: others
 * changed only their own fields, as on a shared object); or changed only in its status and
 * bookkeeping (a Deployment's status updates). That is correct whatever the server defaults,
 * because a body differing from the last one is always sent (server-side apply removes what it no
 * longer sets), and the object is compared with what the server made of this manager's body, or
 * with the body field by field, never with defaults guessed here. After a restart the first apply
 * of each object is sent (and changes nothing on the server). For {@code applyStatus}: the desired status against the current one.
 *
 * <p>Traces carried onward ({@code kubeloop.tracing.propagate}, {@link CarriedTrace}): the
 * annotation is added to the body after the no-op decision, which never sees it, and only to an
 * apply that is sent.
 *
 * <p>Every write goes out on the reconcile's own client ({@link Scope}), which refuses it once the
 * reconcile's permit no longer holds (a replica paused past its Lease); the primary's status is
 * locked on the version it was computed from, so one that got out anyway cannot land on a newer
 * object.
 *
 * <p>Owned objects: for a type the reconciler owns, apply adds the controller owner reference to
 * the primary and the label {@value #APPLIED_BY}; pruning deletes the owned objects that carry the
 * label but that a reconcile did not apply; one applied with {@code ApplyOptions.retain()} carries
 * {@value #RETAINED_BY} instead, and is never pruned. A sharded replica also labels them with their owner's
 * slot ({@link ShardLayout#labelsFollowing}), so that they are cached by the replica that holds
 * their owner. Before an owned apply writes into an existing object, {@link Adoption} checks that
 * it is the primary's or this controller's, and refuses it otherwise, with nothing sent.
 *
 * <p>Thread-safety and state ownership: the fingerprints are a concurrent map written by the
 * workers after each apply; a {@link Scope} belongs to one reconcile (one worker thread).
 */
final class ControllerWrites {

    // the controller's logger, like every other line about a reconcile
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    /** The label on every owned object this controller applied; its value is the controller's name. */
    static final String APPLIED_BY = "kubeloop.dev/applied-by";
    /**
     * The label on every owned object this controller applied with {@code ApplyOptions.retain()},
     * instead of {@value #APPLIED_BY}: outside the pruned set, for every version of pruning.
     */
    static final String RETAINED_BY = "kubeloop.dev/retained-by";

    private final String controller;
    private final String fieldManager;
    private final Set<Class<?>> ownedTypes;
    private final KubernetesSerialization serialization;
    private final ControllerCaches caches;
    private final WriteTracker tracker;
    private final EventRecorder events;
    private final WriteStats stats;
    private final ControllerListener listener;
    /** The slot label owned objects carry; null when this replica is not sharded. */
    private final ShardLayout shards;
    /** Whether the caches strip managedFields: read-your-writes then keeps its copies the same way. */
    private final boolean stripManagedFields;
    private final Adoption adoption;
    private final UndeclaredDeletes undeclaredDeletes;
    /** The annotation applied objects carry the reconcile's traceparent in; null when not propagating. */
    private final String propagated;
    private final ConcurrentHashMap<Applied, Fingerprint> fingerprints = new ConcurrentHashMap<>();

    /** One object as one field manager applies it. */
    private record Applied(WriteTracker.Ref ref, String fieldManager) {
    }

    /**
     * What the last apply sent (but a carried traceparent), the version it left the object at, what the
     * object was then (but status), and the traceparent it carried (null: none).
     */
    private record Fingerprint(String hash, String resourceVersion, String content, String carried) {
    }

    ControllerWrites(ControllerConfig<?> config, KubernetesClient client, ControllerCaches caches,
            WriteTracker tracker, EventRecorder events, WriteStats stats, ControllerListener listener,
            ShardLayout shards, boolean stripManagedFields, Tracing tracing) {
        this.controller = config.name();
        this.fieldManager = config.fieldManager();
        this.ownedTypes = Set.copyOf(config.owns());
        this.serialization = client.getKubernetesSerialization();
        this.caches = caches;
        this.tracker = tracker;
        this.events = events;
        this.stats = stats;
        this.listener = listener;
        this.shards = shards;
        this.stripManagedFields = stripManagedFields;
        this.adoption = new Adoption(controller, fieldManager, client);
        this.undeclaredDeletes = new UndeclaredDeletes(controller, config.deletes(), listener);
        this.propagated = tracing.on() && tracing.propagates() ? tracing.annotation() : null;
    }

    /**
     * The writes of one reconcile: the primary as it started or as the last write left it (a
     * snapshot the reconciler never holds, so that changing its own copy does not change what
     * "current" means), the owned objects applied, and what it read ({@link StatusBasis}). Confined
     * to the worker thread running the reconcile, like the reconcile's context.
     */
    final class Scope {
        private HasMetadata primary;
        /** The reconcile's client: its writes leave only while the reconcile's permit holds. */
        private final KubernetesClient client;
        private final Set<WriteTracker.Ref> applied = new HashSet<>();
        private boolean appliedOwned;
        /** The reconcile's span, for the finalizer's and the status's child spans; null when untraced. */
        private final Tracing.Span span;
        /** What its applies carry of its trace; null when untraced or not propagating. */
        private final CarriedTrace trace;
        /** What it read, and whether its own changes made the basis of its status out of date. */
        private final StatusBasis statusBasis = new StatusBasis();

        Scope(HasMetadata primary, KubernetesClient client, Tracing.Span span) {
            this.primary = primary;
            this.client = client;
            this.span = span;
            this.trace = span == null || propagated == null ? null : new CarriedTrace(propagated, span);
        }

        /** The primary as the last write of this reconcile left it (or as it started). */
        HasMetadata primary() {
            return primary;
        }

        /** What the reconcile read, and whether its status may describe a read its own changes made out of date. */
        StatusBasis statusBasis() {
            return statusBasis;
        }
    }

    Scope scope(HasMetadata primary, KubernetesClient reconcileClient) {
        return new Scope(primary, reconcileClient, null);
    }

    /** The writes of one reconcile traced by {@code span} (null: untraced). */
    Scope scope(HasMetadata primary, KubernetesClient reconcileClient, Tracing.Span span) {
        return new Scope(primary, reconcileClient, span);
    }

    /** {@code write} in a child span {@code step} of the reconcile's, when traced. */
    @SuppressWarnings("try") // the scope is held for its effect: the span current while it is open
    private static <R> R step(Scope scope, String step, HasMetadata target, Supplier<R> write) {
        if (scope.span == null) {
            return write.get();
        }
        Tracing.Span child = scope.span.child(step, ObjectKey.of(target));
        Throwable failure = null;
        try (Tracing.Scope current = child.open()) {
            return write.get();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            child.end(failure == null ? "success" : "error", failure);
        }
    }

    <R extends HasMetadata> R apply(Scope scope, R desired, ApplyOptions options) {
        Objects.requireNonNull(desired, "desired");
        if (desired.getMetadata() == null || desired.getMetadata().getName() == null) {
            throw new IllegalArgumentException("apply needs an object with metadata.name");
        }
        R body = ServerSideApply.body(serialization, desired);
        boolean owned = options.owned() && ownedTypes.contains(body.getClass());
        placeAndOwn(scope.primary, body, owned, options.retained());
        String json = ServerSideApply.json(serialization, body);
        String hash = hash(json);
        String manager = options.fieldManager() != null ? options.fieldManager() : fieldManager;
        WriteTracker.Ref ref = WriteTracker.Ref.of(body);
        Applied applied = new Applied(ref, manager);
        @SuppressWarnings("unchecked")
        Class<R> type = (Class<R>) body.getClass();
        // the object as this controller last knew it: cached, or its own newer write (created but not delivered yet,
        // or of a type it does not cache, for a while)
        Optional<R> cached = caches.find(type, ObjectKey.of(body));
        R current = cached.isPresent() ? tracker.fresher(ref, cached.get()).orElse(null)
                : tracker.lastWritten(type, ref).orElse(null);
        if (owned) {
            scope.applied.add(ref);
            scope.appliedOwned = true;
        }
        Fingerprint last = fingerprints.get(applied);
        if (last != null && last.hash().equals(hash) && current != null && unchangedSince(last, current, body)) {
            skipped(WriteOperation.APPLY);
            return ResourceCopies.deepCopy(serialization, current);
        }
        String adopted = null;
        if (owned) {
            // never take over an object this controller does not control: refused before anything is sent
            Adoption.Claim<R> claim = adoption.claim(scope.primary, body, current, manager, options.adopts());
            current = claim.existing();
            adopted = claim.adopted();
        }
        String carried = null;
        // only as the controller's own manager: managers sharing an object (one per primary) would take it from each other
        if (scope.trace != null && manager.equals(fieldManager) && !scope.trace.setBy(body)) {
            carried = carried(scope.trace, last, hash, current, body, owned);
            if (carried != null) {
                scope.trace.put(body, carried);
            }
        }
        String sending = carried == null ? json : ServerSideApply.json(serialization, body);
        R stored = send(body, () -> applyOrExplain(scope, body, sending, manager, options)).stored();
        sent(WriteOperation.APPLY);
        if (current == null || !Objects.equals(current.getMetadata().getResourceVersion(),
                stored.getMetadata().getResourceVersion())) {
            scope.statusBasis.changed(type, ObjectKey.of(stored), owned);
        }
        fingerprints.put(applied, new Fingerprint(hash, stored.getMetadata().getResourceVersion(),
                contentHash(stored), carried));
        if (owned) {
            report(scope.primary, current, stored, last != null && last.hash().equals(hash), adopted);
        }
        return stored;
    }

    /**
     * The traceparent an apply that is sent carries ({@link CarriedTrace}): what the object carries
     * already when the apply probably changes nothing (the same body again, of an object not seen
     * here: a type not cached, its last write forgotten; or the first apply since the start of an
     * object that carries every field of the body), so that it stays a no-op on the server; else the
     * reconcile's, if sampled. An owned object not seen is absent ({@link Adoption} read it): created.
     */
    private String carried(CarriedTrace trace, Fingerprint last, String hash, HasMetadata current, HasMetadata body,
            boolean owned) {
        if (!owned && current == null && last != null && last.hash().equals(hash)) {
            return last.carried();
        }
        if (last == null && current != null && AppliedState.carries(tree(current), tree(body))) {
            return trace.valueOn(current);
        }
        return trace.reconciles();
    }

    /**
     * Sends the apply; when the API server refuses it as invalid (422) because a list merged by key
     * holds entries the body does not set ({@link StaleListEntries}), replaces those lists by the
     * body's entries and applies once more if the options say so, else fails with the refusal's
     * message completed by what is stale, who set it, and the ways out (the runtime reports it as a
     * Warning event and one log line).
     */
    private <R extends HasMetadata> R applyOrExplain(Scope scope, R body, String json, String manager,
            ApplyOptions options) {
        try {
            return ServerSideApply.apply(scope.client, body, json, manager);
        } catch (KubernetesClientException e) {
            Optional<ApiRefusal> refusal = ApiRefusal.of(e).filter(r -> r.code() == 422);
            if (refusal.isEmpty()) {
                throw e;
            }
            R stored = scope.client.resource(body).get();
            List<StaleListEntries.Entry> stale = stored == null ? List.of()
                    : StaleListEntries.find(tree(stored), tree(body), refusal.get());
            if (stale.isEmpty()) {
                throw e;
            }
            if (options.removesStaleEntries()) {
                log.info("Apply refused because of stale list entries, removing them and applying again: controller={} "
                        + "object={} {} entries={}", controller, body.getKind(), ObjectKey.of(body),
                        stale.stream().map(entry -> entry.list() + entry.key() + " set by " + entry.managers())
                                .toList());
                scope.client.resource(stored).patch(PatchContext.of(PatchType.JSON),
                        StaleListEntries.replacement(stale, stored.getMetadata().getResourceVersion()));
                events.normal(scope.primary, "StaleEntriesRemoved", "Removed " + stale.stream()
                        .map(entry -> entry.key().toString()).collect(Collectors.joining(", ")) + " from "
                        + body.getKind() + " " + body.getMetadata().getName() + ", which the apply does not set and "
                        + "the API server refused it with");
                return ServerSideApply.apply(scope.client, body, json, manager);
            }
            Status status = e.getStatus();
            String message = refusal.get().message() + "." + StaleListEntries.describe(body.getKind(), stale);
            Status explained = new StatusBuilder(status == null ? new Status() : status).withMessage(message).build();
            throw new KubernetesClientException(message, e, e.getCode(), explained, null);
        }
    }

    /**
     * Namespaced objects default to the primary's namespace; an owned one gets the controller owner
     * reference and the {@value #APPLIED_BY} label, or {@value #RETAINED_BY} when retained (and
     * never both, so that no pruning, an earlier version's included, selects it). Owner references
     * never cross namespaces.
     */
    private void placeAndOwn(HasMetadata primary, HasMetadata body, boolean owned, boolean retained) {
        boolean namespaced = body instanceof Namespaced;
        String primaryNamespace = primary.getMetadata().getNamespace();
        if (namespaced && body.getMetadata().getNamespace() == null) {
            if (primaryNamespace == null) {
                throw new TerminalException(body.getKind() + " " + body.getMetadata().getName() + " needs a "
                        + "namespace: set metadata.namespace (the primary " + primary.getKind() + " is cluster-scoped)");
            }
            body.getMetadata().setNamespace(primaryNamespace);
        }
        if (!owned) {
            return;
        }
        if (primaryNamespace != null && (!namespaced || !primaryNamespace.equals(body.getMetadata().getNamespace()))) {
            throw new TerminalException("Reconciler '" + controller + "' cannot own " + body.getKind() + " "
                    + ObjectKey.of(body) + ": " + primary.getKind() + " " + ObjectKey.of(primary) + " is namespaced, "
                    + "and owner references do not cross namespaces. Apply it in namespace " + primaryNamespace
                    + ", or with ApplyOptions.defaults().notOwned()");
        }
        Optional<OwnerReference> controllerRef = OwnerIndex.controllerOf(body);
        if (controllerRef.isEmpty()) {
            List<OwnerReference> references = body.getMetadata().getOwnerReferences() == null ? new ArrayList<>()
                    : new ArrayList<>(body.getMetadata().getOwnerReferences());
            references.add(new OwnerReferenceBuilder().withApiVersion(primary.getApiVersion())
                    .withKind(primary.getKind()).withName(primary.getMetadata().getName())
                    .withUid(primary.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                    .build());
            body.getMetadata().setOwnerReferences(references);
        }
        Map<String, String> labels = body.getMetadata().getLabels() == null ? new HashMap<>()
                : new HashMap<>(body.getMetadata().getLabels());
        if (retained) {
            labels.remove(APPLIED_BY);
            labels.put(RETAINED_BY, controller);
        } else {
            labels.put(APPLIED_BY, controller);
        }
        if (shards != null) {
            labels.putAll(shards.labelsFollowing(primary));
        }
        body.getMetadata().setLabels(labels);
    }

    /** Says on the primary what an apply did: created, adopted, updated for a new desired state, or repaired. */
    private void report(HasMetadata primary, HasMetadata before, HasMetadata stored, boolean sameAsLastApply,
            String adopted) {
        String what = stored.getKind() + " " + stored.getMetadata().getName();
        if (adopted != null) {
            events.normal(primary, "Adopted", adopted);
            log.info("Apply adopted an existing object: controller={} key={}: {}", controller, ObjectKey.of(primary),
                    adopted);
        } else if (before == null) {
            events.normal(primary, "Created", "Created " + what);
        } else if (!Objects.equals(before.getMetadata().getResourceVersion(), stored.getMetadata().getResourceVersion())) {
            if (sameAsLastApply) {
                events.normal(primary, "Repaired", what + " had been changed by someone else and was set back");
            } else {
                Long generation = primary.getMetadata().getGeneration();
                events.normal(primary, "Updated", "Updated " + what + (generation == null ? ""
                        : " for generation " + generation + " of the " + primary.getKind()));
            }
        }
    }

    /**
     * Applies {@code resource}'s status; skipped when the primary's current status (as this
     * reconcile last saw or wrote it) equals it.
     */
    <T extends HasMetadata> T applyStatus(Scope scope, T resource) {
        Object status = ResourceCopies.status(serialization, resource);
        if (status == null) {
            throw new IllegalArgumentException(resource.getKind() + " " + resource.getMetadata().getName()
                    + " has no status to apply");
        }
        Object current = ResourceCopies.status(serialization, scope.primary);
        // sent or not, the reconciler has said what the status is by now
        scope.statusBasis.statusWritten();
        if (current != null && tree(status).equals(tree(current))) {
            skipped(WriteOperation.APPLY_STATUS);
            @SuppressWarnings("unchecked")
            T unchanged = (T) ResourceCopies.deepCopy(serialization, scope.primary);
            return unchanged;
        }
        String basis = newestKnown(scope.primary, resource);
        Sent<T> sent = step(scope, "status", resource, () -> send(resource,
                () -> ServerSideApply.applyStatus(scope.client, resource, status, fieldManager, basis)));
        sent(WriteOperation.APPLY_STATUS);
        scope.primary = sent.snapshot();
        return sent.stored();
    }

    /**
     * The version a status is computed from: the newer of the primary as this reconcile last saw or
     * wrote it and the object the reconciler passed (it may have read a newer one itself). Its own
     * writes move the first on, so a reconcile never conflicts with itself; a change by anyone else
     * (a newer spec, another replica that took the object over) fails the status write with 409.
     */
    private static String newestKnown(HasMetadata primary, HasMetadata resource) {
        String known = primary.getMetadata().getResourceVersion();
        String passed = resource.getMetadata() == null ? null : resource.getMetadata().getResourceVersion();
        return ResourceVersions.compare(passed, known) == ResourceVersions.Order.NEWER ? passed : known;
    }

    <T extends HasMetadata> T updateStatus(Scope scope, T resource) {
        Sent<T> sent = step(scope, "status", resource, () -> send(resource,
                () -> StatusWriter.write(scope.client, resource, fieldManager)));
        sent(WriteOperation.UPDATE_STATUS);
        scope.primary = sent.snapshot();
        scope.statusBasis.statusWritten();
        return sent.stored();
    }

    /**
     * How the finalizer protocol sends its patches of the primary: as this reconcile's writes. What
     * it returns becomes the reconciler's primary, so it is given the caches' form (without
     * managedFields when they strip them), as a primary read from the cache has: the object is the
     * response fabric8 just parsed, which nobody else holds.
     */
    <T extends HasMetadata> FinalizerProtocol.Sender<T> finalizerSender(Scope scope) {
        return (target, patch) -> {
            Sent<T> sent = step(scope, "finalizer", target, () -> send(target, patch));
            sent(WriteOperation.FINALIZER);
            scope.primary = sent.snapshot();
            T stored = sent.stored();
            if (stripManagedFields && stored != null && stored.getMetadata() != null) {
                stored.getMetadata().setManagedFields(null);
            }
            return stored;
        };
    }

    /**
     * Deletes the owned objects this controller applied before (they carry {@value #APPLIED_BY})
     * that this reconcile did not apply; only after a reconcile that applied at least one owned
     * object, so that one that returns before applying anything (an invalid spec, say) prunes nothing.
     * The pruned set is the primary's children with {@value #APPLIED_BY}; one that also carries
     * {@value #RETAINED_BY} (labelled by hand to keep it, say) is outside it.
     */
    void prune(Scope scope, Set<Class<?>> owned, String primaryUid) {
        if (!scope.appliedOwned || primaryUid == null) {
            return;
        }
        for (Class<?> type : owned) {
            @SuppressWarnings("unchecked")
            Class<HasMetadata> ownedType = (Class<HasMetadata>) type;
            for (HasMetadata cached : caches.cache(ownedType).byIndex(OwnerIndex.NAME, primaryUid)) {
                HasMetadata object = tracker.fresher(WriteTracker.Ref.of(cached), cached).orElse(null);
                if (object == null) {
                    continue; // deleted by an earlier reconcile; the informer has not delivered it yet
                }
                Map<String, String> labels = object.getMetadata().getLabels();
                if (labels == null || !controller.equals(labels.get(APPLIED_BY)) || labels.containsKey(RETAINED_BY)
                        || scope.applied.contains(WriteTracker.Ref.of(object))) {
                    continue;
                }
                if (pruneNow(scope, object)) {
                    sent(WriteOperation.PRUNE);
                    scope.statusBasis.changed(object.getClass(), ObjectKey.of(object), true);
                    events.normal(scope.primary, "Pruned", object.getKind() + " " + object.getMetadata().getName()
                            + " is no longer wanted and was deleted");
                }
            }
        }
    }

    /**
     * Deletes a child found in the pruned set, but only as the version this reconcile judged: the
     * delete carries a precondition on its resourceVersion. The cache may be behind the API server;
     * someone may have just labelled the object {@value #RETAINED_BY} to keep it, or taken it over.
     * The server then refuses with 409, and nothing is deleted; that change's event queues the
     * primary again, and the next reconcile judges the object as it now is.
     *
     * @return whether this delete removed it (false: it changed since, or was gone already)
     */
    private boolean pruneNow(Scope scope, HasMetadata object) {
        try {
            return deleteNow(scope, object, true);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            log.debug("Not pruned, changed since the cache's version: controller={} key={} child={} {}/{} "
                    + "resourceVersion={}", controller, ObjectKey.of(scope.primary), object.getKind(),
                    object.getMetadata().getNamespace(), object.getMetadata().getName(),
                    object.getMetadata().getResourceVersion());
            return false;
        }
    }

    /**
     * Deletes {@code object} for the reconcile ({@code context.delete}): through its fenced client,
     * and known to read-your-writes at once, so that this reconcile's lists, and the next one's,
     * leave it out before the informer delivers the deletion.
     *
     * @return whether the API server had the object (false: it was gone already)
     */
    boolean delete(Scope scope, HasMetadata object) {
        boolean existed = deleteNow(scope, object, false);
        if (existed) {
            sent(WriteOperation.DELETE);
            scope.statusBasis.changed(object.getClass(), ObjectKey.of(object), controlledBy(object, scope.primary));
            events.normal(scope.primary, "Deleted", object.getKind() + " " + object.getMetadata().getName()
                    + " was deleted");
        }
        return existed;
    }

    /** Whether {@code object}'s controller owner reference is {@code primary}. */
    private static boolean controlledBy(HasMetadata object, HasMetadata primary) {
        String uid = primary.getMetadata().getUid();
        List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
        return uid != null && owners != null && owners.stream()
                .anyMatch(owner -> Boolean.TRUE.equals(owner.getController()) && uid.equals(owner.getUid()));
    }

    /** @param asSeen whether to delete only the version {@code object} is (a precondition on its resourceVersion) */
    private boolean deleteNow(Scope scope, HasMetadata object, boolean asSeen) {
        boolean[] existed = new boolean[1];
        send(object, () -> {
            boolean locked = asSeen && object.getMetadata().getResourceVersion() != null;
            existed[0] = !(locked ? scope.client.resource(object).lockResourceVersion() : scope.client.resource(object))
                    .delete().isEmpty();
            tracker.deletedByWrite(object);
            return null;
        });
        // after the API server took it (gone already or not): the generated Role would have refused either
        undeclaredDeletes.deleted(scope.primary, object);
        return existed[0];
    }

    /** What a write returned, and the copy read-your-writes keeps (null for a delete). */
    private record Sent<R>(R stored, HasMetadata snapshot) {
    }

    /**
     * Sends one write of {@code target}: read-your-writes holds the object's events while it is on
     * its way (one may be its echo), and keeps a copy of what it returned: the caller keeps (and
     * may change) the object it got, the tracker and the scope keep what the server stored.
     */
    private <R extends HasMetadata> Sent<R> send(HasMetadata target, Supplier<R> call) {
        WriteTracker.Ref ref = WriteTracker.Ref.of(target);
        tracker.writing(ref);
        try {
            R stored = call.get();
            HasMetadata snapshot = null;
            if (stored != null) {
                // the tracker's copy looks like a cached object, so a read is the same whichever answers it
                snapshot = stripManagedFields ? ResourceCopies.deepCopyWithoutManagedFields(serialization, stored)
                        : ResourceCopies.deepCopy(serialization, stored);
                tracker.written(snapshot);
            }
            return new Sent<>(stored, snapshot);
        } finally {
            tracker.writeEnded(ref);
        }
    }

    private void sent(WriteOperation operation) {
        stats.sent(operation);
        listener.written(operation, false);
    }

    private void skipped(WriteOperation operation) {
        stats.skipped(operation);
        listener.written(operation, true);
    }

    /**
     * Whether {@code current} is still what the last apply (of the same body) left: the same
     * version; or it carries every field of the body (others changed only what they own: a shared
     * object, a label of theirs, the status); or only its status and bookkeeping moved.
     */
    private boolean unchangedSince(Fingerprint last, HasMetadata current, HasMetadata body) {
        return last.resourceVersion().equals(current.getMetadata().getResourceVersion())
                || AppliedState.carries(tree(current), tree(body)) || last.content().equals(contentHash(current));
    }

    /** A hash of {@code object} but its status, resourceVersion and managedFields: what an apply can change. */
    private String contentHash(HasMetadata object) {
        JsonNode tree = tree(object);
        if (tree instanceof ObjectNode root) {
            root.remove("status");
            if (root.get("metadata") instanceof ObjectNode metadata) {
                metadata.remove("resourceVersion");
                metadata.remove("managedFields");
            }
        }
        return hash(tree.toString());
    }

    private JsonNode tree(Object value) {
        return serialization.convertValue(value, JsonNode.class);
    }

    private static String hash(String json) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
