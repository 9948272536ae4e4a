package dev.kubeloop.test;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.test.webhook.WebhookTester;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.context.ApplicationContext;

/**
 * Waits on what the Kubeloop runtime knows about its work, and reads what tests assert on. A bean
 * in every {@link KubeloopTest} context.
 *
 * <p>Waiting is driven by the runtime: the kit observes every controller (queue adds, reconcile
 * starts and ends) and re-checks its condition on each of those events, and at the latest every
 * {@value #RECHECK_MILLIS} ms for what the runtime does not report (a watch event reaching a
 * cache). Every wait has a deadline; on expiry it fails with what is still queued or in flight and
 * the last errors of the keys concerned, never silently.
 *
 * <p>Thread-safety: the observer callbacks run on the runtime's threads and only bump a counter
 * and wake waiters; everything else runs on the test's thread.
 */
public final class KubeloopTestKit implements ControllerObserver {

    /** How long waits take at most unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final long RECHECK_MILLIS = 100;
    /** Outcomes after which the runtime retries the key: not reconciled yet. */
    private static final Set<ReconcileOutcome> FAILED = EnumSet.of(ReconcileOutcome.ERROR, ReconcileOutcome.CONFLICT,
            ReconcileOutcome.TIMEOUT, ReconcileOutcome.REQUEUE);

    private final TestCluster cluster;
    private final ApplicationContext context;
    private final RuntimeSignal signal = new RuntimeSignal();
    /** The outcome of each key's last reconcile; written by workers, read by the test thread. */
    private final Map<ControllerKey, ReconcileOutcome> lastOutcomes = new ConcurrentHashMap<>();
    /** What each controller has taken in; written by informer threads. */
    private final TakenIn takenIn = new TakenIn();
    private final ReconcileJournal journal = new ReconcileJournal();
    /** Deletes of kinds the reconcilers do not declare; written by workers. */
    private final UndeclaredDeleteRecord undeclaredDeletes;

    KubeloopTestKit(TestCluster cluster, ApplicationContext context) {
        this(cluster, context, true);
    }

    KubeloopTestKit(TestCluster cluster, ApplicationContext context, boolean failOnUndeclaredDeletes) {
        this.cluster = cluster;
        this.context = context;
        this.undeclaredDeletes = new UndeclaredDeleteRecord(failOnUndeclaredDeletes);
    }

    // ---- the cluster -------------------------------------------------------------------------

    /** The test's client (the same as the {@code KubernetesClient} bean). */
    /**
     * The application's validators, defaulters and converters, called in-process through Kubeloop's
     * own AdmissionReview and ConversionReview handling (no TLS, no API server); with or without
     * {@code @KubeloopTest(webhooks = true)}.
     *
     * @throws IllegalStateException if the application has no webhook beans
     */
    public WebhookTester webhooks() {
        Webhooks webhooks = context.getBeanProvider(Webhooks.class).getIfAvailable();
        if (webhooks == null || webhooks.isEmpty()) {
            throw new IllegalStateException("The application declares no Validator, Defaulter or SpokeConverter bean");
        }
        return WebhookTester.of(webhooks, cluster.client().getKubernetesSerialization());
    }

    public KubernetesClient client() {
        return cluster.client();
    }

    /** The namespace the test's objects belong in: {@code test} on the mock, a fresh one on a real cluster. */
    public String namespace() {
        return cluster.namespace();
    }

    /** True when the test runs against a real cluster rather than the embedded mock server. */
    public boolean realCluster() {
        return cluster.real();
    }

    // ---- waiting -----------------------------------------------------------------------------

    /** {@link #awaitReconciled(HasMetadata, Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public <T extends HasMetadata> T awaitReconciled(T object) {
        return awaitReconciled(object, DEFAULT_TIMEOUT);
    }

    /**
     * Waits until {@code object}, as the API server has it now, is reconciled, and returns once all
     * of this holds at one moment:
     * <ul>
     *   <li>its {@code status.observedGeneration} equals its {@code metadata.generation};
     *   <li>its controller has taken in every object the API server has in the scopes of the
     *       controller's informers, at its current version: the reconcile's own writes (through
     *       the context or the raw client) and the test's have reached it, and queued whatever
     *       reconcile they ask for;
     *   <li>the controller has no work queued or in flight for the key, and the key's last
     *       reconcile did not fail: its outcome is recorded ({@link #metrics} counts it).
     * </ul>
     * A delayed requeue ({@code requeueAfter}) does not count as work: it runs later by design. What
     * happens after it returns is not covered (a change by someone else, a requeue coming due). For
     * a type whose status has no {@code observedGeneration}, pass what reconciled means:
     * {@link #awaitReconciled(HasMetadata, Predicate, Duration)}.
     *
     * @return the object as the API server has it once reconciled
     */
    public <T extends HasMetadata> T awaitReconciled(T object, Duration timeout) {
        return awaitReconciled(object, null, timeout);
    }

    /**
     * {@link #awaitReconciled(HasMetadata, Predicate, Duration)} with {@link #DEFAULT_TIMEOUT}.
     */
    public <T extends HasMetadata> T awaitReconciled(T object, Predicate<? super T> reconciled) {
        return awaitReconciled(object, reconciled, DEFAULT_TIMEOUT);
    }

    /**
     * As {@link #awaitReconciled(HasMetadata, Duration)}, with what the reconciler writes to say it
     * is done in place of {@code status.observedGeneration}: for a type whose status has none (a
     * port of an operator whose CRD you do not own, say), e.g. {@code m -> m.getStatus() != null &&
     * m.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Available"))}. The
     * other conditions hold as they do there: taken in, nothing queued or in flight for the key, the
     * last reconcile not failed, the object unchanged while that was checked.
     *
     * @param reconciled what the object, as the API server has it, shows once reconciled; null: its
     *     {@code status.observedGeneration} equals its {@code metadata.generation}
     */
    public <T extends HasMetadata> T awaitReconciled(T object, Predicate<? super T> reconciled, Duration timeout) {
        Controller<?> controller = controllerFor(object);
        ObjectKey key = ObjectKey.of(object);
        return awaitValue("reconciled: " + describe(object), timeout, () -> {
            T latest = client().resource(object).get();
            if (latest == null) {
                return Check.notYet("it does not exist (deleted?)");
            }
            if (reconciled != null) {
                if (!reconciled.test(latest)) {
                    return Check.notYet("it does not show reconciled yet (the test's condition is false)");
                }
            } else {
                Long generation = latest.getMetadata().getGeneration();
                Object observed = ObjectFields.observedGeneration(client(), latest);
                if (!Objects.equals(asLong(observed), generation)) {
                    return Check.notYet("status.observedGeneration is " + observed + ", metadata.generation is "
                            + generation + (observed == null ? " (a status without observedGeneration: pass what "
                                    + "reconciled means, awaitReconciled(object, reconciled))" : ""));
                }
            }
            // in this order: what was taken in is queued already, so the queue is looked at after it
            String lagging = takenIn.lagging(controller, client());
            if (lagging != null) {
                return Check.notYet(lagging);
            }
            ItemState state = controller.state(key);
            if (state.busy()) {
                return Check.notYet("its key is " + state.name().toLowerCase(Locale.ROOT));
            }
            ReconcileOutcome last = lastOutcomes.get(new ControllerKey(controller.name(), key));
            if (last == ReconcileOutcome.RETRIES_EXHAUSTED) {
                return Check.notYet("its last reconcile failed its last allowed attempt (max-attempts): the key rests "
                        + "until the object changes");
            }
            if (last != null && FAILED.contains(last)) {
                return Check.notYet("its last reconcile ended with " + last.name().toLowerCase(Locale.ROOT)
                        + " and a retry is pending");
            }
            // the object was read before the queue was looked at: a reconcile that ended in between may have
            // written it since (its status), and what is returned must be what that reconcile left
            T now = client().resource(object).get();
            if (now == null || !Objects.equals(now.getMetadata().getResourceVersion(),
                    latest.getMetadata().getResourceVersion())) {
                return Check.notYet("it changed while its controller was looked at (a reconcile's write landing)");
            }
            return Check.done(now);
        }, List.of(key));
    }

    /** {@link #awaitIdle(Duration)} with {@link #DEFAULT_TIMEOUT}. */
    public void awaitIdle() {
        awaitIdle(DEFAULT_TIMEOUT);
    }

    /**
     * Waits until, at one moment, every controller's caches have synced, every controller has taken
     * in every object the API server has in its informers' scopes at its current version (so an
     * object the test just created, changed or deleted has reached it and queued its reconcile),
     * and no key is queued or in flight (delayed requeues and backoff retries may remain: they run
     * later by design).
     */
    public void awaitIdle(Duration timeout) {
        awaitValue("every controller idle", timeout, () -> {
            for (Controller<?> controller : manager().controllers()) {
                ControllerStatus status = controller.status();
                if (!status.synced()) {
                    return Check.notYet(controller.name() + "'s caches have not synced");
                }
            }
            for (Controller<?> controller : manager().controllers()) {
                String lagging = takenIn.lagging(controller, client());
                if (lagging != null) {
                    return Check.notYet(lagging);
                }
            }
            for (Controller<?> controller : manager().controllers()) {
                ControllerStatus status = controller.status();
                if (status.queue().depth() > 0 || status.queue().processing() > 0) {
                    return Check.notYet(controller.name() + " has " + status.queue().depth() + " queued and "
                            + status.queue().processing() + " in flight");
                }
            }
            return Check.done(Boolean.TRUE);
        }, List.of());
    }

    /** {@link #await(String, Duration, BooleanSupplier)} with {@link #DEFAULT_TIMEOUT}. */
    public void await(String description, BooleanSupplier condition) {
        await(description, DEFAULT_TIMEOUT, condition);
    }

    /**
     * Waits until {@code condition} holds, re-checking it whenever the runtime does something. A
     * condition that throws (an AssertJ assertion, say) counts as not yet holding; its message is
     * part of the failure on timeout.
     */
    public void await(String description, Duration timeout, BooleanSupplier condition) {
        awaitValue(description, timeout, () -> condition.getAsBoolean() ? Check.done(Boolean.TRUE)
                : Check.notYet("the condition is false"), List.of());
    }

    // ---- reading -----------------------------------------------------------------------------

    /**
     * The objects of {@code type} with an owner reference to {@code owner} (by uid), from the API
     * server: in its namespace, or in every namespace when the owner is cluster-scoped (it may own
     * namespaced objects anywhere).
     */
    public <R extends HasMetadata> List<R> owned(HasMetadata owner, Class<R> type) {
        String uid = Objects.requireNonNull(owner.getMetadata().getUid(), "owner has no uid: use the object the server returned");
        String namespace = owner.getMetadata().getNamespace();
        var resources = client().resources(type);
        return (namespace == null ? resources.inAnyNamespace() : resources.inNamespace(namespace)).list().getItems().stream()
                .filter(o -> o.getMetadata().getOwnerReferences() != null && o.getMetadata().getOwnerReferences()
                        .stream().anyMatch(ref -> uid.equals(ref.getUid())))
                .toList();
    }

    /**
     * The core/v1 Events recorded about {@code object}, oldest first: in its namespace, or for a
     * cluster-scoped object in {@code default}, where Kubernetes (and Kubeloop) records them.
     */
    public List<Event> events(HasMetadata object) {
        String uid = object.getMetadata().getUid();
        String namespace = object.getMetadata().getNamespace() == null ? "default" : object.getMetadata().getNamespace();
        return client().v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && (uid != null ? uid.equals(e.getInvolvedObject().getUid())
                        : Objects.equals(object.getMetadata().getName(), e.getInvolvedObject().getName())
                                && Objects.equals(object.getKind(), e.getInvolvedObject().getKind())))
                .sorted(Comparator.comparing(e -> Objects.toString(e.getLastTimestamp(), "")))
                .toList();
    }

    /**
     * Waits until an Event with {@code reason} has been recorded about {@code object} and returns it.
     * Events are written by a background thread, after the reconcile that records them returns.
     */
    public Event awaitEvent(HasMetadata object, String reason) {
        return awaitValue("an Event " + reason + " about " + describe(object), DEFAULT_TIMEOUT, () -> events(object)
                .stream().filter(e -> reason.equals(e.getReason())).findFirst().map(Check::done)
                .orElseGet(() -> Check.notYet("recorded so far: " + eventReasons(object))), List.of());
    }

    /** The reasons of {@link #events(HasMetadata)}, e.g. {@code [Created, InvalidSpec]}. */
    public List<String> eventReasons(HasMetadata object) {
        return events(object).stream().map(Event::getReason).toList();
    }

    /**
     * A controller's live state and counters: reconciles by outcome (what
     * {@code controller_runtime_reconcile_total} counts), workers, queue depth, keys in flight,
     * the last errors.
     */
    public ControllerStatus metrics(String controller) {
        return controller(controller).status();
    }

    /** Every reconcile finished since the application started, to assert on which ran and how they ended. */
    public ReconcileJournal journal() {
        return journal;
    }

    /** The controller named {@code name}. */
    public Controller<?> controller(String name) {
        return manager().controller(name).orElseThrow(() -> new AssertionError("No controller named '" + name
                + "'; controllers: " + manager().controllers().stream().map(Controller::name).toList()));
    }

    /** Queues a reconcile of {@code object} now, as if it had changed. */
    public void reconcile(HasMetadata object) {
        Controller<?> controller = controllerFor(object);
        if (!controller.enqueue(ObjectKey.of(object))) {
            throw new IllegalStateException("Controller " + controller.name() + " is shutting down");
        }
        signal.changed();
    }

    // ---- ControllerObserver ------------------------------------------------------------------

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        return new ControllerListener() {
            @Override
            public void added(int priority) {
                signal.changed();
            }

            @Override
            public void done(long nanos) {
                signal.changed();
            }

            @Override
            public void reconcileStarted(ObjectKey key) {
                signal.changed();
            }

            @Override
            public void eventTakenIn(HasMetadata object, boolean delete) {
                takenIn.taken(config.name(), object, delete);
                signal.changed();
            }

            @Override
            public void undeclaredDelete(HasMetadata object, String advice) {
                undeclaredDeletes.record(advice);
                signal.changed();
            }

            @Override
            public void reconcileFinished(ReconcileReport report) {
                lastOutcomes.put(new ControllerKey(report.controller(), report.key()), report.outcome());
                journal.finished(report);
                signal.changed();
            }
        };
    }

    @Override
    public void managerStarted(ControllerManager manager) {
        signal.changed();
    }

    /**
     * At the end of each test ({@link KubeloopTestExtension}): fails it if its reconciles deleted a
     * kind their {@code @Reconciler(deletes)} does not list, unless
     * {@link KubeloopTest#failOnUndeclaredDeletes()} is off.
     */
    void testEnded(boolean failedAlready) {
        if (failedAlready) {
            undeclaredDeletes.clear(); // a wait reported them, or the test's own failure comes first
        } else {
            undeclaredDeletes.failIfAny();
        }
    }

    // ---- internals ---------------------------------------------------------------------------

    private ControllerManager manager() {
        return context.getBean(ControllerManager.class);
    }

    private Controller<?> controllerFor(HasMetadata object) {
        return manager().controllers().stream().filter(c -> c.config().primaryType() == object.getClass())
                .findFirst().orElseThrow(() -> new AssertionError("No controller reconciles " + object.getKind()
                        + " (" + object.getClass().getName() + "); controllers: "
                        + manager().controllers().stream().map(c -> c.name() + " -> "
                                + c.config().primaryType().getSimpleName()).toList()));
    }

    private <V> V awaitValue(String what, Duration timeout, Supplier<Check<V>> check, List<ObjectKey> keys) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastReason = "not checked yet";
        while (true) {
            long seen = signal.version();
            AssertionError undeclared = undeclaredDeletes.failure();
            if (undeclared != null) {
                throw undeclared; // fails now rather than at the deadline, or in a cluster
            }
            Check<V> result;
            try {
                result = check.get();
            } catch (RuntimeException | AssertionError e) {
                result = Check.notYet(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            if (result.done()) {
                return result.value();
            }
            lastReason = result.reason();
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting until " + what
                        + ": " + lastReason + "\n" + Diagnostics.describe(manager(), keys));
            }
            signal.awaitChangeAfter(seen, Math.min(remaining, Duration.ofMillis(RECHECK_MILLIS).toNanos()));
        }
    }

    private static Long asLong(Object value) {
        return value instanceof Number number ? number.longValue() : null;
    }

    private static String describe(HasMetadata object) {
        return object.getKind() + " " + ObjectKey.of(object);
    }

    private record ControllerKey(String controller, ObjectKey key) {
    }

    /** One evaluation of a wait's condition. */
    private record Check<V>(boolean done, V value, String reason) {
        static <V> Check<V> done(V value) {
            return new Check<>(true, value, null);
        }

        static <V> Check<V> notYet(String reason) {
            return new Check<>(false, null, reason);
        }
    }

}
