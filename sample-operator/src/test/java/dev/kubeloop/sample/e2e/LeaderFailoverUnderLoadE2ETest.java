package dev.kubeloop.sample.e2e;

import static dev.kubeloop.sample.replica.ReconcileJournal.micros;
import static dev.kubeloop.sample.replica.ReconcileJournal.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.replica.OperatorProcess;
import dev.kubeloop.sample.replica.ReconcileJournal;
import dev.kubeloop.sample.replica.ReconcileJournal.Reconcile;
import dev.kubeloop.sample.replica.SpecUpdates;
import dev.kubeloop.sample.replica.Websites;
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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Leader failover under load, with a leader that dies rather than stops: two replicas of the
 * sample operator in child JVMs on one real Lease, 200 Websites whose pages change 20 times a
 * second, and the leader SIGKILLed in the middle of it (no drain, no release of the Lease,
 * reconciles cut off wherever they were). The Lease timings are short so that the test waits
 * seconds, not the default 15: lease 6 s, renew deadline 4 s, retry period 1 s.
 *
 * <p>Every replica journals each reconcile's start and end with its wall-clock time (one machine,
 * one clock). Asserted: no Website is reconciled by both replicas at overlapping times (a
 * reconcile the kill cut short counts as running until the kill); the standby reconciles nothing
 * while the leader lives, and nothing before the dead leader's Lease has expired; once it leads it
 * reconciles every Website, and every Website converges to its latest spec. Printed: the takeover
 * time (kill to the new leader's first reconcile) and the other figures.
 *
 * <p>The test's own context runs no operator ({@code kubeloop.enabled=false}): it only provides the
 * namespace, the CRD and the client.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.enabled=false"})
class LeaderFailoverUnderLoadE2ETest {

    static final int SITES = 200;
    static final int UPDATES_PER_SECOND = 20;
    static final String LEASE = "website-operator-leader";
    static final int LEASE_SECONDS = 6;
    static final int RENEW_DEADLINE_SECONDS = 4;
    static final int RETRY_PERIOD_SECONDS = 1;
    /** Generous: two replicas, kube-apiserver, etcd and the test share two loaded cores. */
    static final Duration STARTUP = Duration.ofSeconds(120);
    static final Duration CONVERGENCE = Duration.ofSeconds(180);
    static final Duration TAKEOVER_DEADLINE = Duration.ofSeconds(90);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aStandbyTakesOverFromASigkilledLeaderWithoutOverlapAndEveryWebsiteConverges() {
        Path directory = Path.of("target", "reliability", "leader-failover-" + System.currentTimeMillis());
        Websites websites = new Websites(client, kit.namespace());
        // both replicas start at once (the Lease decides who leads) and boot while the Websites are created
        try (OperatorProcess a = replica("replica-a", directory);
                OperatorProcess b = replica("replica-b", directory)) {
            List<String> names = websites.create(SITES, "v0");
            kit.await(a + " and " + b + " have synced their caches, one holds the Lease", STARTUP,
                    () -> a.journal().ready().isPresent() && b.journal().ready().isPresent() && holder() != null);
            OperatorProcess leader = a.instance().equals(holder()) ? a : b;
            OperatorProcess standby = leader == a ? b : a;
            websites.awaitConverged(kit, leader.instance() + " reconciled all " + SITES + " Websites", SITES,
                    CONVERGENCE);

            Instant killed;
            Instant dead;
            LeaseSpec leftBehind;
            SpecUpdates updates = SpecUpdates.start(websites, names, UPDATES_PER_SECOND);
            try {
                kit.await("spec changes under way and " + leader + " inside a reconcile", Duration.ofSeconds(60),
                        () -> updates.done() >= 3 * UPDATES_PER_SECOND && !leader.journal().running().isEmpty());
                assertThat(holder()).as("the leader when it is killed").isEqualTo(leader.instance());
                killed = Instant.now();
                leader.kill();
                dead = Instant.now();
                assertThat(leader.awaitExit(Duration.ZERO)).hasValue(OperatorProcess.SIGKILL_EXIT_CODE);
                leftBehind = lease().getSpec(); // the dead leader's last renewal: nobody writes it until it expires
                assertThat(leftBehind.getHolderIdentity()).as("a SIGKILLed leader releases nothing")
                        .isEqualTo(leader.instance());
                kit.await(standby + " reconciles as the new leader", TAKEOVER_DEADLINE,
                        () -> standby.journal().firstEnterFrom(micros(killed)).isPresent());
                long atTakeover = updates.done();
                kit.await("spec changes go on under the new leader", Duration.ofSeconds(60),
                        () -> updates.done() >= atTakeover + 3 * UPDATES_PER_SECOND);
            } finally {
                updates.close();
            }
            Instant updatesStopped = Instant.now();
            websites.awaitConverged(kit, "every Website converged under " + standby.instance(), SITES, CONVERGENCE);
            Instant converged = Instant.now();
            // a new leader queues every cached object once, at low priority: those already converged may come last
            List<String> keys = names.stream().map(name -> kit.namespace() + "/" + name).toList();
            kit.await("on taking over, the new leader reconciles every Website", CONVERGENCE,
                    () -> standby.journal().reconciledKeys().containsAll(keys));

            ReconcileJournal old = leader.journal();
            ReconcileJournal successor = standby.journal();
            List<Reconcile> byOld = old.reconciles(micros(dead)); // cut short by the kill: running until then
            List<Reconcile> bySuccessor = successor.reconciles(micros(Instant.now()));
            long cutShort = byOld.stream().filter(Reconcile::open).count();
            long takeover = successor.firstEnterFrom(micros(killed)).orElseThrow();
            Instant expiry = leftBehind.getRenewTime().toInstant().plusSeconds(leftBehind.getLeaseDurationSeconds());

            assertThat(successor.firstEnterFrom(0).orElseThrow())
                    .as("the standby's first reconcile comes after the kill: a standby reconciles nothing")
                    .isGreaterThanOrEqualTo(micros(killed));
            assertThat(ReconcileJournal.overlaps(byOld, bySuccessor))
                    .as("reconciles of one Website by both replicas at once").isEmpty();
            assertThat(takeover).as("the standby's first reconcile comes after the dead leader's Lease expired at %s",
                    expiry).isGreaterThanOrEqualTo(micros(expiry));
            assertThat(holder()).isEqualTo(standby.instance());
            assertThat(websites.convergence().converged()).isEqualTo(SITES);

            System.out.printf(Locale.ROOT, "[reliability] failover-under-load: %d Websites, 2 replicas (child JVMs), "
                    + "spec updates at %.1f/s (%d in %d s, %d failed), leader SIGKILLed with %d reconciles in flight; "
                    + "lease %d s / renew %d s / retry %d s: overlaps 0, standby reconciles before the kill 0, "
                    + "converged %d/%d (%s after the updates stopped), takeover %s (kill -> first reconcile of the "
                    + "new leader; the Lease expired %s after the kill), reconciles old leader %d / new leader %d%n",
                    SITES, updates.rate(), updates.done(), updates.elapsed().toSeconds(), updates.failed(), cutShort,
                    LEASE_SECONDS, RENEW_DEADLINE_SECONDS, RETRY_PERIOD_SECONDS, SITES, SITES,
                    seconds(micros(updatesStopped), micros(converged)), seconds(micros(killed), takeover),
                    seconds(micros(killed), micros(expiry)), byOld.size(), bySuccessor.size());
        }
    }

    private OperatorProcess replica(String identity, Path directory) {
        return OperatorProcess.start(identity, directory, kit, Duration.ZERO, List.of(
                "sample.demo=off",
                "server.port=0",
                "kubeloop.namespaces=" + kit.namespace(),
                "kubeloop.leader-election.enabled=true",
                "kubeloop.leader-election.identity=" + identity,
                "kubeloop.leader-election.lease-namespace=" + kit.namespace(),
                "kubeloop.leader-election.lease-name=" + LEASE,
                "kubeloop.leader-election.lease-duration=" + LEASE_SECONDS + "s",
                "kubeloop.leader-election.renew-deadline=" + RENEW_DEADLINE_SECONDS + "s",
                "kubeloop.leader-election.retry-period=" + RETRY_PERIOD_SECONDS + "s"));
    }

    private Lease lease() {
        return client.leases().inNamespace(kit.namespace()).withName(LEASE).get();
    }

    private String holder() {
        Lease lease = lease();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }
}
