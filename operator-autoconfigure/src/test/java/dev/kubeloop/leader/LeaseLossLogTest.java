package dev.kubeloop.leader;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.FencedWidgetReconciler;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.LeasePartition;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an operator's log says when it loses the Lease: one clear line saying so and why, at most
 * one saying that Lease requests fail, and no stack trace at INFO or above: losing a Lease is an
 * expected event, not a bug. fabric8's elector is captured at the level the starter gives it
 * ({@code KubeloopLoggingDefaults}: ERROR, since it logs each failed attempt with its trace).
 * Each way of losing the Lease is one test.
 */
class LeaseLossLogTest {

    private static final String LEASE = "widget-operator-leader";

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final LeasePartition partition = new LeasePartition();
    private final List<LeadershipState> lost = new CopyOnWriteArrayList<>();
    private KubernetesClient client;
    private ControllerManager manager;
    private LeaderElection election;

    @AfterEach
    void tearDown() {
        partition.heal();
        if (manager != null) {
            manager.stop();
        }
        if (client != null) {
            client.close();
        }
        cluster.close();
    }

    @Test
    void aRenewalThatHangsPastTheRenewDeadlineLogsOneLineAndNoStackTrace() {
        startLeader();
        try (CapturedLogs logs = capture(); CapturedLogs fabric8 = captureFabric8()) {
            partition.cut();

            assertLossLoggedOnceWithoutTrace(logs, fabric8);
        }
    }

    @Test
    void renewalsAnsweredWithErrorsUntilTheRenewDeadlineLogOneLineAndNoStackTrace() {
        startLeader();
        try (CapturedLogs logs = capture(); CapturedLogs fabric8 = captureFabric8()) {
            cluster.faults().on("PATCH", ".*/leases/" + LEASE).answer(ApiError.internalError());
            cluster.faults().on("PUT", ".*/leases/" + LEASE).answer(ApiError.internalError());

            assertLossLoggedOnceWithoutTrace(logs, fabric8);
        }
    }

    @Test
    void aLeaseTakenOverByAnotherHolderLogsOneLineAndNoStackTrace() {
        startLeader();
        try (CapturedLogs logs = capture(); CapturedLogs fabric8 = captureFabric8()) {
            // the leader renews every 250 ms: retry a write that raced with a renewal
            eventually().ignoreExceptions().until(() -> cluster.client().leases().inNamespace("ns").withName(LEASE)
                    .edit(lease -> {
                        lease.getSpec().setHolderIdentity("intruder");
                        lease.getSpec().setRenewTime(ZonedDateTime.now());
                        return lease;
                    }) != null);

            assertLossLoggedOnceWithoutTrace(logs, fabric8);
        }
    }

    private void assertLossLoggedOnceWithoutTrace(CapturedLogs logs, CapturedLogs fabric8) {
        eventually().until(() -> !lost.isEmpty());
        eventually().until(() -> !logs.events(Level.ERROR, "Lost leadership").isEmpty());
        manager.stop(); // what the exit does next: the retired term is cancelled again, and must not release
        assertThat(logs.events(Level.ERROR, "Lost leadership")).hasSize(1);
        assertThat(logs.events(Level.WARN, "Lease requests are failing")).hasSizeLessThanOrEqualTo(1);
        assertThat(withStackTraces(logs)).as("kubeloop's lines").isEmpty();
        assertThat(withStackTraces(fabric8)).as("fabric8's elector lines").isEmpty();
    }

    private static List<String> withStackTraces(CapturedLogs logs) {
        return logs.events().stream().filter(event -> event.getThrowableProxy() != null)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static CapturedLogs capture() {
        return CapturedLogs.of("dev.kubeloop", Level.INFO);
    }

    private static CapturedLogs captureFabric8() {
        return CapturedLogs.of("io.fabric8.kubernetes.client.extended.leaderelection", Level.ERROR);
    }

    private void startLeader() {
        client = cluster.newClient(builder -> builder.withHttpClientBuilderConsumer(
                http -> http.addOrReplaceInterceptor("partition", partition)));
        election = new LeaderElection(client, LeaderElectionSettings.builder("ns", LEASE, "a")
                .leaseDuration(Duration.ofSeconds(4)).renewDeadline(Duration.ofMillis(2500))
                .retryPeriod(Duration.ofMillis(250)).onLost(OnLost.EXIT).build(), lost::add);
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).workGate(election).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new FencedWidgetReconciler("a", new FencingRegister(), Duration.ofMillis(10)));
        manager.start();
        eventually().until(() -> election.state().isLeader());
    }
}
