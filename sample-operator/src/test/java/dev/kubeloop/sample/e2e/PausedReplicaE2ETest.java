package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.replica.OperatorProcess;
import dev.kubeloop.sample.replica.ReconcileJournal;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A replica frozen in the middle of a reconcile for longer than its Lease (SIGSTOP: a long GC
 * pause, a frozen VM), then resumed (SIGCONT), must not write what another replica has taken over
 * meanwhile: not the owned objects, not the primary's status from generations ago (status-only
 * changes are filtered, so nobody would set that right before the next resync).
 *
 * <p>Two replicas of the sample in child JVMs ({@link OperatorProcess}); every reconcile first
 * waits {@link #RECONCILE_DELAY} (the journal says when it entered), so the test pauses the replica
 * that entered the reconcile of a freshly edited Website while that reconcile is known to be in
 * flight and has written nothing yet. It then edits the Website again, waits until the other
 * replica reconciled that newer generation and is idle, takes the resourceVersion of every object
 * the reconcile may write, resumes the paused replica and waits until its journal says the
 * in-flight reconcile ended. Nothing else writes those objects now (no controllers run beside the
 * API server), so any version that moved was written by the resumed replica, or by the other one
 * setting its write right. Bounded: every wait has a deadline, and the paused process is resumed in
 * a {@code finally}.
 *
 * <p>Rounds per mode: {@code -Dpause.e2e.rounds} (default 3). The figures are printed as
 * {@code [reliability] paused-replica ...}.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.enabled=false"})
class PausedReplicaE2ETest {

    static final int ROUNDS = Integer.getInteger("pause.e2e.rounds", 3);
    /** Each reconcile waits this long before its first write: the window in which the test pauses it. */
    static final Duration RECONCILE_DELAY = Duration.ofSeconds(3);
    // short, so that a round costs seconds; not so short that a loaded API server fences the replicas
    static final int LEASE_SECONDS = 6;
    static final int RENEW_DEADLINE_SECONDS = 4;
    static final int RETRY_PERIOD_SECONDS = 1;
    static final Duration STARTUP = Duration.ofSeconds(300);
    static final Duration TAKEOVER = Duration.ofSeconds(90);
    static final Duration POLL = Duration.ofMillis(10);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aLeaderPausedMidReconcileWritesNothingOnceTheStandbyHasTakenOver() {
        rounds("leader-election", "paused-leader", identity -> List.of(
                "kubeloop.leader-election.enabled=true",
                "kubeloop.leader-election.identity=" + identity,
                "kubeloop.leader-election.lease-namespace=" + kit.namespace(),
                "kubeloop.leader-election.on-lost=standby",
                "kubeloop.leader-election.lease-duration=" + LEASE_SECONDS + "s",
                "kubeloop.leader-election.renew-deadline=" + RENEW_DEADLINE_SECONDS + "s",
                "kubeloop.leader-election.retry-period=" + RETRY_PERIOD_SECONDS + "s"));
    }

    @Test
    void aShardMemberPausedMidReconcileWritesNothingOnceItsBucketHasMoved() {
        rounds("sharding", "paused-member", identity -> List.of(
                "kubeloop.sharding.enabled=true",
                "kubeloop.sharding.ring-name=paused-e2e",
                "kubeloop.sharding.namespace=" + kit.namespace(),
                "kubeloop.sharding.identity=" + identity,
                "kubeloop.sharding.buckets=4",
                "kubeloop.sharding.lease-duration=" + LEASE_SECONDS + "s",
                "kubeloop.sharding.renew-deadline=" + RENEW_DEADLINE_SECONDS + "s",
                "kubeloop.sharding.retry-period=" + RETRY_PERIOD_SECONDS + "s"));
    }

    /** What one round saw. */
    record Round(int number, String paused, long pausedMillis, long resumeToExitMillis, String outcome,
            Map<String, String> written, long observedGeneration, long generation) {

        boolean clean() {
            return written.isEmpty() && observedGeneration == generation;
        }

        @Override
        public String toString() {
            return "round " + number + ": paused " + paused + " for " + pausedMillis + " ms; its reconcile ended "
                    + resumeToExitMillis + " ms after SIGCONT (" + outcome + "); written after the takeover: "
                    + (written.isEmpty() ? "nothing" : written) + "; observedGeneration " + observedGeneration
                    + " of " + generation;
        }
    }

    private void rounds(String mode, String site, java.util.function.Function<String, List<String>> modeProperties) {
        Path directory = Path.of("target", "reliability", "paused-" + mode + "-" + System.currentTimeMillis());
        List<Round> rounds = new ArrayList<>();
        try (OperatorProcess a = replica("replica-a", directory, modeProperties);
                OperatorProcess b = replica("replica-b", directory, modeProperties)) {
            await("both replicas started", STARTUP, () -> a.journal().ready().isPresent()
                    && b.journal().ready().isPresent());
            Website created = client.resource(Sites.website(kit.namespace(), site, "v0")).create();
            await("the Website reconciled", STARTUP, () -> converged(created));
            for (int number = 1; number <= ROUNDS; number++) {
                rounds.add(round(site, number, a, b));
                System.out.printf("[reliability] paused-replica %s %s%n", mode, rounds.get(rounds.size() - 1));
            }
        }
        System.out.printf("[reliability] paused-replica %s: %d rounds, lease %d s / renew %d s / retry %d s, reconcile "
                + "delay %d ms; clean %d of %d%n", mode, ROUNDS, LEASE_SECONDS, RENEW_DEADLINE_SECONDS,
                RETRY_PERIOD_SECONDS, RECONCILE_DELAY.toMillis(), rounds.stream().filter(Round::clean).count(), ROUNDS);
        assertThat(rounds).as("rounds in which the resumed replica wrote after the takeover, or the Website was "
                + "left with an old observedGeneration").allMatch(Round::clean);
    }

    private Round round(String site, int number, OperatorProcess a, OperatorProcess b) {
        String key = kit.namespace() + "/" + site;
        await("both replicas idle before round " + number, TAKEOVER, () -> idle(a, key) && idle(b, key));
        long aBefore = enters(a, key);
        long bBefore = enters(b, key);
        edit(site, "round-" + number + "-in-flight");
        await("a replica entered the reconcile of " + key, TAKEOVER,
                () -> enters(a, key) > aBefore || enters(b, key) > bBefore);
        boolean aEntered = enters(a, key) > aBefore;
        OperatorProcess paused = aEntered ? a : b;
        OperatorProcess other = aEntered ? b : a;
        long pausedAt = System.nanoTime();
        paused.pause();
        boolean resumed = false;
        try {
            assertThat(running(paused, key)).as(paused + " paused while its reconcile of " + key + " is in flight "
                    + "(it waits " + RECONCILE_DELAY + " before writing)").isTrue();
            Website newer = edit(site, "round-" + number + "-after-takeover");
            await(other.instance() + " took over and reconciled generation " + newer.getMetadata().getGeneration()
                    + ", its pruning done", TAKEOVER, () -> converged(newer) && idle(other, key) && onlyWantedPage(newer));
            Map<String, String> before = versions(site);
            long pausedMillis = (System.nanoTime() - pausedAt) / 1_000_000;
            paused.resume();
            resumed = true;
            long resumedAt = System.nanoTime();
            await(paused.instance() + "'s reconcile in flight ended", TAKEOVER, () -> !running(paused, key));
            long resumeToExit = (System.nanoTime() - resumedAt) / 1_000_000;
            String outcome = lastOutcome(paused, key);
            // whatever the resumed replica wrote, the other one may be setting right now: let it finish
            await(other.instance() + " idle", TAKEOVER, () -> idle(other, key));
            Map<String, String> written = changed(before, versions(site));
            Website latest = client.resource(newer).get();
            long observed = latest.getStatus() == null || latest.getStatus().getObservedGeneration() == null ? -1
                    : latest.getStatus().getObservedGeneration();
            return new Round(number, paused.instance(), pausedMillis, resumeToExit, outcome, written, observed,
                    latest.getMetadata().getGeneration());
        } finally {
            if (!resumed) {
                paused.resume();
            }
        }
    }

    private Website edit(String name, String page) {
        return client.resources(Website.class).inNamespace(kit.namespace()).withName(name).edit(site -> {
            site.getSpec().setPage(page);
            return site;
        });
    }

    private boolean converged(Website site) {
        Website latest = client.resource(site).get();
        return latest != null && latest.getStatus() != null
                && Objects.equals(latest.getMetadata().getGeneration(), latest.getStatus().getObservedGeneration());
    }

    /**
     * Whether the Website's only page ConfigMap is the one its spec's page names: the previous page's,
     * which the reconcile no longer applies, is pruned. The journal says a reconcile ended when the
     * reconciler returned; the runtime prunes after that, so a snapshot taken at the journal's word
     * alone could miss the taking-over replica's own prune and blame it on the resumed one.
     */
    private boolean onlyWantedPage(Website site) {
        Website latest = client.resource(site).get();
        String wanted = WebsiteResources.contentName(latest);
        return client.configMaps().inNamespace(kit.namespace()).list().getItems().stream()
                .map(configMap -> configMap.getMetadata().getName())
                .filter(name -> name.startsWith(site.getMetadata().getName() + "-content-"))
                .allMatch(wanted::equals);
    }

    /** The resourceVersion of every object a reconcile of the Website may write (its own, the index), by kind and name. */
    private Map<String, String> versions(String site) {
        Map<String, String> versions = new TreeMap<>();
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client.resources(Website.class).inNamespace(kit.namespace()).list().getItems());
        objects.addAll(client.configMaps().inNamespace(kit.namespace()).list().getItems());
        objects.addAll(client.apps().deployments().inNamespace(kit.namespace()).list().getItems());
        objects.addAll(client.services().inNamespace(kit.namespace()).list().getItems());
        for (HasMetadata object : objects) {
            String name = object.getMetadata().getName();
            if (!name.equals(site) && !name.startsWith(site + "-") && !name.equals(Sites.INDEX)) {
                continue; // the other test's
            }
            versions.put(object.getKind() + "/" + object.getMetadata().getName(),
                    object.getMetadata().getResourceVersion());
        }
        return versions;
    }

    private static Map<String, String> changed(Map<String, String> before, Map<String, String> after) {
        Map<String, String> changed = new TreeMap<>();
        after.forEach((name, version) -> {
            if (!version.equals(before.get(name))) {
                changed.put(name, before.getOrDefault(name, "(new)") + " -> " + version);
            }
        });
        before.keySet().stream().filter(name -> !after.containsKey(name))
                .forEach(name -> changed.put(name, "deleted"));
        return changed;
    }

    private static long enters(OperatorProcess replica, String key) {
        return replica.journal().reconciles(Long.MAX_VALUE).stream().filter(r -> r.key().equals(key)).count();
    }

    private static boolean running(OperatorProcess replica, String key) {
        return replica.journal().running().stream().anyMatch(r -> r.key().equals(key));
    }

    private static boolean idle(OperatorProcess replica, String key) {
        return !running(replica, key);
    }

    private static String lastOutcome(OperatorProcess replica, String key) {
        List<ReconcileJournal.Reconcile> of = replica.journal().reconciles(Long.MAX_VALUE).stream()
                .filter(r -> r.key().equals(key)).toList();
        return of.isEmpty() ? "none" : String.valueOf(of.get(of.size() - 1).outcome());
    }

    private OperatorProcess replica(String identity, Path directory,
            java.util.function.Function<String, List<String>> modeProperties) {
        List<String> properties = new ArrayList<>(List.of("sample.demo=off", "server.port=" + Polls.freePort(),
                "kubeloop.namespaces=" + kit.namespace()));
        properties.addAll(modeProperties.apply(identity));
        // a reconcile that does not stop at the interrupt (busy computing, say): what it sends after is what counts
        return OperatorProcess.start(identity, directory, kit, RECONCILE_DELAY, true, properties);
    }

    private static void await(String description, Duration timeout, BooleanSupplier condition) {
        Polls.await(description, timeout, POLL, condition);
    }
}
