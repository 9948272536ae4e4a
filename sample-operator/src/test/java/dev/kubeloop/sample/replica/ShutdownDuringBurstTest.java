package dev.kubeloop.sample.replica;

import static dev.kubeloop.sample.replica.ReconcileJournal.micros;
import static dev.kubeloop.sample.replica.ReconcileJournal.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.replica.ReconcileJournal.Reconcile;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * SIGTERM in the middle of a burst, with leader election on: the sample operator runs in a child
 * JVM, every reconcile takes {@value #RECONCILE_DELAY_MS} ms longer than it needs, and the
 * kubelet's SIGTERM ({@link Process#destroy()}) arrives while both workers are inside reconciles
 * of a burst of spec changes and more are queued.
 *
 * <p>Asserted: the process exits by itself with the JVM's SIGTERM exit code (Spring Boot's
 * shutdown hook closes the context, then the JVM exits with 128 + 15); every reconcile in flight
 * ends before the runtime's stop returns, by finishing or, only if the shutdown timeout passed
 * (which the log then says), by interruption; the Lease is released (holder empty) after the last
 * reconcile ended and before the runtime's stop returned, so a restarted replica acquires it
 * before it would have expired instead of waiting for it; and the restarted replica reconciles
 * every Website, converging those whose change the first one never got to. Printed: the shutdown
 * time, the reconciles in flight at SIGTERM, the Websites left behind, and how long the restarted
 * replica took to lead and to converge.
 *
 * <p>A second test takes the other way out: reconciles that would take a minute are interrupted
 * once the (short) shutdown timeout has passed, and only then is the Lease released.
 *
 * <p>Against the embedded mock API server (the replicas find it through a kubeconfig), so it runs
 * in the regular build. The Lease is long ({@value #LEASE_SECONDS} s): a takeover before it expires
 * can only come from the release. The test's own context runs no operator.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.enabled=false"})
class ShutdownDuringBurstTest {

    static final int SITES = 24;
    static final long RECONCILE_DELAY_MS = 400;
    static final String SHUTDOWN_TIMEOUT = "10s";
    static final String SHORT_SHUTDOWN_TIMEOUT = "1s";
    static final String LEASE = "website-operator-leader";
    static final int LEASE_SECONDS = 120;
    /** Generous: a replica starts in a few seconds on an idle machine, this one is shared. */
    static final Duration STARTUP = Duration.ofSeconds(120);
    static final Duration CONVERGENCE = Duration.ofSeconds(120);
    /** The shutdown timeout plus what Spring's other phases and the JVM's exit take; a hang would blow it. */
    static final Duration EXIT_DEADLINE = Duration.ofSeconds(70);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void sigtermDrainsTheReconcilesInFlightReleasesTheLeaseAndARestartedReplicaConverges() {
        Path directory = Path.of("target", "reliability", "shutdown-during-burst-" + System.currentTimeMillis());
        Websites websites = new Websites(client, kit.namespace());
        List<String> names = websites.create(SITES, "v1");

        Instant sigterm;
        Instant exited;
        LeaseSpec held;
        ReconcileJournal journal;
        String log;
        try (OperatorProcess first = replica("replica-1", directory)) {
            kit.await(first + " holds the Lease", STARTUP, () -> "replica-1".equals(holder()));
            websites.awaitConverged(kit, "replica-1 reconciled every Website", SITES, CONVERGENCE);
            names.forEach(name -> websites.setHtml(name, "v2"));
            kit.await(first + " has both workers inside reconciles of the burst", Duration.ofSeconds(60),
                    () -> first.journal().running().size() == 2);
            held = lease().getSpec();

            sigterm = Instant.now();
            first.terminate();
            assertThat(first.awaitExit(EXIT_DEADLINE)).as(first + " exits by itself after SIGTERM")
                    .hasValue(OperatorProcess.SIGTERM_EXIT_CODE);
            exited = Instant.now();
            journal = first.journal();
            log = first.log();
        }
        Websites.Convergence leftBehind = websites.convergence();
        long closing = journal.closing()
                .orElseThrow(() -> new AssertionError("replica-1 journaled no closing:\n" + log));
        List<Reconcile> inFlightAtSigterm = journal.runningAt(micros(sigterm));
        List<Reconcile> drained = journal.runningAt(closing);

        long runtimeStopped = journal.runtimeStopped()
                .orElseThrow(() -> new AssertionError("replica-1 journaled no runtime stop:\n" + log));
        assertThat(journal.reconciles(Long.MAX_VALUE)).as("reconciles that never ended").noneMatch(Reconcile::open);
        assertThat(journal.lastExit()).as("the last reconcile ended before the runtime's stop returned")
                .hasValueSatisfying(lastEnded -> assertThat(lastEnded).isLessThanOrEqualTo(runtimeStopped));
        if (drained.stream().anyMatch(r -> ReconcileJournal.INTERRUPTED.equals(r.outcome()))) {
            assertThat(log).as("reconciles are interrupted only at the shutdown timeout")
                    .contains("Shutdown timeout of");
        }
        LeaseSpec released = lease().getSpec();
        long releasedAt = micros(released.getRenewTime().toInstant());
        long lastExit = journal.lastExit().orElseThrow();
        assertThat(released.getHolderIdentity()).as("the Lease's holder after a graceful shutdown").isNullOrEmpty();
        assertThat(releasedAt).as("the release (the Lease's renewTime %s) comes after the last reconcile ended and "
                + "within the runtime's stop", released.getRenewTime())
                .isGreaterThanOrEqualTo(lastExit).isLessThanOrEqualTo(runtimeStopped);
        assertThat(log.indexOf("Released the Lease")).as("the release, logged before the runtime reports it stopped")
                .isNotNegative().isLessThan(log.indexOf("Kubeloop stopped"));

        try (OperatorProcess second = replica("replica-2", directory)) {
            kit.await(second + " takes the released Lease", STARTUP, () -> "replica-2".equals(holder()));
            LeaseSpec taken = lease().getSpec();
            Instant expiry = held.getRenewTime().toInstant().plusSeconds(held.getLeaseDurationSeconds());
            assertThat(taken.getAcquireTime().toInstant())
                    .as("replica-2 acquired the Lease before it would have expired").isBefore(expiry);
            websites.awaitConverged(kit, "replica-2 converged every Website", SITES, CONVERGENCE);
            Instant converged = Instant.now();
            // a new leader queues every cached object once, at low priority: those already converged may come last
            List<String> keys = names.stream().map(name -> kit.namespace() + "/" + name).toList();
            kit.await("the restarted leader reconciles every Website", CONVERGENCE,
                    () -> second.journal().reconciledKeys().containsAll(keys));
            ReconcileJournal restarted = second.journal();

            System.out.printf(Locale.ROOT, "[reliability] sigterm-during-burst: %d Websites, burst of %d spec changes, "
                    + "reconciles %d ms, 2 workers, leader election on (lease %d s), shutdown-timeout %s; SIGTERM with "
                    + "%d reconciles in flight (%d at context close, ended %s): exit code %d after %s, Lease released "
                    + "(holder empty) %s after the last reconcile ended, %d Websites "
                    + "left unconverged; restarted replica led %s after its start (Lease not expired), converged "
                    + "%d/%d %s after its start (%s after ready)%n",
                    SITES, SITES, RECONCILE_DELAY_MS, LEASE_SECONDS, SHUTDOWN_TIMEOUT, inFlightAtSigterm.size(),
                    drained.size(), outcomes(drained), OperatorProcess.SIGTERM_EXIT_CODE,
                    seconds(micros(sigterm), micros(exited)), ReconcileJournal.millis(lastExit, releasedAt),
                    leftBehind.total() - leftBehind.converged(),
                    seconds(micros(second.started()), micros(taken.getAcquireTime().toInstant())), SITES, SITES,
                    seconds(micros(second.started()), micros(converged)),
                    seconds(restarted.ready().orElseThrow(), micros(converged)));
        }
    }

    /**
     * The other way a reconcile in flight ends at shutdown: reconciles that would take a minute
     * are interrupted once {@value #SHORT_SHUTDOWN_TIMEOUT} of draining has passed, the log says
     * so, and only then is the Lease released. Its own namespace on the mock, so that its
     * Websites and Lease stay apart from the other test's.
     */
    @Test
    void reconcilesStillRunningAtTheShutdownTimeoutAreInterruptedBeforeTheLeaseIsReleased() {
        Path directory = Path.of("target", "reliability", "past-shutdown-timeout-" + System.currentTimeMillis());
        String namespace = "slow";
        new Websites(client, namespace).create(4, "v1");

        Instant sigterm;
        Instant exited;
        ReconcileJournal journal;
        String log;
        try (OperatorProcess slow = replica("replica-slow", namespace, directory, Duration.ofSeconds(60),
                SHORT_SHUTDOWN_TIMEOUT)) {
            kit.await(slow + " has both workers inside a reconcile", STARTUP,
                    () -> slow.journal().running().size() == 2);
            sigterm = Instant.now();
            slow.terminate();
            assertThat(slow.awaitExit(EXIT_DEADLINE)).as(slow + " exits by itself after SIGTERM")
                    .hasValue(OperatorProcess.SIGTERM_EXIT_CODE);
            exited = Instant.now();
            journal = slow.journal();
            log = slow.log();
        }
        long closing = journal.closing()
                .orElseThrow(() -> new AssertionError("replica-slow journaled no closing:\n" + log));
        long runtimeStopped = journal.runtimeStopped()
                .orElseThrow(() -> new AssertionError("replica-slow journaled no runtime stop:\n" + log));
        List<Reconcile> inFlight = journal.runningAt(closing);
        long lastExit = journal.lastExit().orElseThrow();

        assertThat(journal.reconciles(Long.MAX_VALUE)).as("reconciles that never ended").noneMatch(Reconcile::open);
        assertThat(inFlight).as("the reconciles in flight at close").hasSize(2)
                .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(ReconcileJournal.INTERRUPTED));
        assertThat(log).contains("Shutdown timeout of 1000 ms reached with reconciles in flight");
        assertThat(lastExit - closing).as("µs from close to the interrupt: the drain waited for the shutdown timeout")
                .isGreaterThanOrEqualTo(1_000_000L);
        LeaseSpec released = lease(namespace).getSpec();
        long releasedAt = micros(released.getRenewTime().toInstant());
        assertThat(released.getHolderIdentity()).as("the Lease's holder after a graceful shutdown").isNullOrEmpty();
        assertThat(releasedAt).as("the release comes after the interrupted reconciles ended, within the runtime's stop")
                .isGreaterThanOrEqualTo(lastExit).isLessThanOrEqualTo(runtimeStopped);

        System.out.printf(Locale.ROOT, "[reliability] sigterm-past-shutdown-timeout: reconciles of 60 s, 2 workers, "
                + "leader election on, shutdown-timeout %s; SIGTERM with %d reconciles in flight: interrupted %s "
                + "after close, Lease released (holder empty) %s after the interrupted reconciles ended, exit code %d "
                + "after %s%n", SHORT_SHUTDOWN_TIMEOUT, journal.runningAt(micros(sigterm)).size(),
                seconds(closing, lastExit), ReconcileJournal.millis(lastExit, releasedAt),
                OperatorProcess.SIGTERM_EXIT_CODE, seconds(micros(sigterm), micros(exited)));
    }

    private OperatorProcess replica(String identity, Path directory) {
        return replica(identity, kit.namespace(), directory, Duration.ofMillis(RECONCILE_DELAY_MS), SHUTDOWN_TIMEOUT);
    }

    private OperatorProcess replica(String identity, String namespace, Path directory, Duration reconcileDelay,
            String shutdownTimeout) {
        return OperatorProcess.start(identity, directory, kit, reconcileDelay, List.of(
                "sample.demo=off",
                "server.port=0",
                "kubeloop.namespaces=" + namespace,
                "kubeloop.shutdown-timeout=" + shutdownTimeout,
                "kubeloop.leader-election.enabled=true",
                "kubeloop.leader-election.identity=" + identity,
                "kubeloop.leader-election.lease-namespace=" + namespace,
                "kubeloop.leader-election.lease-name=" + LEASE,
                "kubeloop.leader-election.lease-duration=" + LEASE_SECONDS + "s",
                "kubeloop.leader-election.renew-deadline=60s",
                "kubeloop.leader-election.retry-period=2s"));
    }

    /** e.g. {@code {done=2}}: how the reconciles in flight at close ended. */
    private static Map<String, Long> outcomes(List<Reconcile> reconciles) {
        return reconciles.stream().collect(Collectors.groupingBy(Reconcile::outcome, TreeMap::new,
                Collectors.counting()));
    }

    private Lease lease() {
        return lease(kit.namespace());
    }

    private Lease lease(String namespace) {
        return client.leases().inNamespace(namespace).withName(LEASE).get();
    }

    private String holder() {
        Lease lease = lease();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }
}
