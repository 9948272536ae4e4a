package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.Causes;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.WriteOperation;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * Read-your-writes under a burst, on a real API server: Websites created at once, then a stream of
 * spec changes. A reconcile that starts on a primary older than the previous reconcile's own writes
 * (its status, the finalizer) is caught around the reconciler ({@link ReconcileHook}) by a check
 * that knows nothing of how Kubeloop tracks writes: it remembers what each reconcile wrote and
 * checks what the next one of the key starts with. None may; no reconcile may conflict; every change converges with at most one
 * status write. And every reconcile starts with the same form of the object whichever answered the
 * read, the cache or read-your-writes: without managedFields, which the caches strip.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(ReconcileHook.Config.class)
class ReadYourWritesE2ETest {

    private static final int SITES = 100;
    private static final int CHANGES = 300;
    private static final int CHANGES_PER_SECOND = 100;
    private static final Duration CONVERGE = Duration.ofSeconds(120);
    private static final String FINALIZER = "website.kubeloop.dev/finalizer";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconcileHook hook;

    private StaleStarts staleStarts;

    @Test
    void noReconcileStartsOnAPrimaryOlderThanItsOwnWritesAndNoneConflictsWithThem() throws Exception {
        staleStarts = new StaleStarts(client);
        hook.aroundEveryReconcile(staleStarts);
        try {
            burst();
        } finally {
            hook.aroundEveryReconcile(null); // the context (and the hook) may serve other test classes
        }
    }

    private void burst() throws Exception {
        ControllerStatus before = kit.metrics("website");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < SITES; i++) {
            names.add(String.format("burst-%03d", i));
        }
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> creates = new ArrayList<>();
            for (String name : names) {
                creates.add(writers.submit(() -> client.resource(Sites.website(kit.namespace(), name, "v0")).create()));
            }
            for (Future<?> create : creates) {
                create.get(60, TimeUnit.SECONDS);
            }
        } finally {
            writers.shutdownNow();
        }
        awaitConverged(names);
        long reconcilesForCreates = reconciles(kit.metrics("website")) - reconciles(before);

        long pause = TimeUnit.SECONDS.toNanos(1) / CHANGES_PER_SECOND;
        long next = System.nanoTime();
        for (int change = 1; change <= CHANGES; change++) {
            String name = names.get(change % SITES);
            int version = change;
            // a merge patch, not an edit: an edit is locked on the resourceVersion it read, and the operator
            // writes the Website's status meanwhile (a user's kubectl edit would retry the 409)
            client.resources(Website.class).inNamespace(kit.namespace()).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"page\":\"v" + version + "\"}}");
            next += pause;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // pacing the load, not waiting for a result
            }
        }
        awaitConverged(names);

        ControllerStatus after = kit.metrics("website");
        long reconciles = reconciles(after) - reconciles(before);
        long conflicts = after.outcomes().get(ReconcileOutcome.CONFLICT) - before.outcomes().get(ReconcileOutcome.CONFLICT);
        long statusWrites = after.writes().sent().get(WriteOperation.APPLY_STATUS)
                - before.writes().sent().get(WriteOperation.APPLY_STATUS);
        System.out.printf("[read-your-writes] %d Websites created, then %d spec changes at %d/s: %d reconciles "
                + "(%.2f per created object), %d conflicts (%d of a Website changed meanwhile), %d stale starts (%d "
                + "checked), %d status writes for %d changes and creates, stale reads avoided %d, max cache lag %d ms%n",
                SITES, CHANGES, CHANGES_PER_SECOND, reconciles, reconcilesForCreates / (double) SITES, conflicts,
                staleStarts.superseded.get(),
                staleStarts.stale.get(), staleStarts.checked.get(), statusWrites, SITES + CHANGES,
                after.writes().staleReadsAvoided(), after.writes().maxCacheLag().toMillis());
        assertThat(staleStarts.checked.get()).as("reconciles checked").isGreaterThanOrEqualTo(SITES);
        assertThat(staleStarts.stale.get()).as("reconciles that started on a primary older than their own writes: %s",
                staleStarts.examples).isZero();
        // a 409 on a Website whose spec the test changed while it was reconciled is the API server refusing a
        // status computed from the older spec, as it should; one on an unchanged Website would be a stale read
        assertThat(staleStarts.selfConflicts.get()).as("conflicts of reconciles whose Website did not change "
                + "meanwhile: %s", staleStarts.examples).isZero();
        assertThat(conflicts).as("conflicts counted by the runtime").isEqualTo(staleStarts.superseded.get());
        // the caches strip managedFields (the default), and read-your-writes keeps its copies the same
        // way: a reconcile cannot tell whether the cache or the tracker answered
        assertThat(staleStarts.withManagedFields.get()).as("reconciles that started with managedFields: %s",
                staleStarts.examples).isZero();
        assertThat(after.outcomes().get(ReconcileOutcome.ERROR)).isEqualTo(before.outcomes().get(ReconcileOutcome.ERROR));
        assertThat(statusWrites).as("status writes: at most one per create and per change").isLessThanOrEqualTo(
                SITES + CHANGES);
    }

    private void awaitConverged(List<String> names) {
        kit.await("every Website's status describes its spec", CONVERGE, () -> client.resources(Website.class)
                .inNamespace(kit.namespace()).list().getItems().stream()
                .filter(site -> names.contains(site.getMetadata().getName()))
                .filter(site -> site.getStatus() != null && Objects.equals(site.getStatus().getObservedGeneration(),
                        site.getMetadata().getGeneration()))
                .count() == names.size());
        kit.awaitIdle(CONVERGE);
    }

    private static long reconciles(ControllerStatus status) {
        return status.outcomes().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * What each reconcile left on its copy of the Website (the status it wrote, the finalizer), and
     * whether the next reconcile of the key started with a Website older than that.
     */
    static final class StaleStarts implements ReconcileHook.Around {
        private final KubernetesClient client;
        final AtomicInteger checked = new AtomicInteger();
        /** 409s of reconciles whose Website the test changed while they ran: the status they computed is refused. */
        final AtomicInteger superseded = new AtomicInteger();
        /** 409s of reconciles whose Website did not change while they ran: they had read it stale. */
        final AtomicInteger selfConflicts = new AtomicInteger();
        final AtomicInteger stale = new AtomicInteger();
        final AtomicInteger withManagedFields = new AtomicInteger();
        final List<String> examples = new CopyOnWriteArrayList<>();
        private final Map<String, Written> written = new ConcurrentHashMap<>();

        StaleStarts(KubernetesClient client) {
            this.client = client;
        }

        @Override
        public void failed(Website site, Throwable error) {
            if (Causes.status(error, 409).isEmpty()) {
                return;
            }
            Website now = client.resource(site).get();
            if (now != null && now.getMetadata().getGeneration() > site.getMetadata().getGeneration()) {
                superseded.incrementAndGet();
            } else {
                selfConflicts.incrementAndGet();
                if (examples.size() < 5) {
                    examples.add(site.getMetadata().getName() + ": 409 at generation " + site.getMetadata().getGeneration()
                            + ", still the server's: " + error);
                }
            }
        }

        private record Written(Long observedGeneration, boolean finalizer) {
            static Written of(Website site) {
                return new Written(site.getStatus() == null ? null : site.getStatus().getObservedGeneration(),
                        site.getMetadata().getFinalizers().contains(FINALIZER));
            }
        }

        @Override
        public void before(Website site) {
            if (site.getMetadata().getManagedFields() != null && !site.getMetadata().getManagedFields().isEmpty()
                    && withManagedFields.incrementAndGet() == 1 && examples.size() < 5) {
                examples.add(site.getMetadata().getName() + " started with managedFields at version "
                        + site.getMetadata().getResourceVersion());
            }
            Written last = written.get(site.getMetadata().getName());
            if (last == null) {
                return;
            }
            checked.incrementAndGet();
            Written now = Written.of(site);
            boolean olderStatus = last.observedGeneration() != null && (now.observedGeneration() == null
                    || now.observedGeneration() < last.observedGeneration());
            if (olderStatus || (last.finalizer() && !now.finalizer())) {
                stale.incrementAndGet();
                if (examples.size() < 5) {
                    examples.add(site.getMetadata().getName() + ": wrote " + last + ", the next started with " + now);
                }
            }
        }

        @Override
        public void after(Website site) {
            written.put(site.getMetadata().getName(), Written.of(site));
        }
    }
}
