package dev.kubeloop.benchmarks.failover;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import dev.kubeloop.leader.LeaderElection;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One operator replica of the failover benchmark: its own client, a {@link ControllerManager}
 * gated by a {@link LeaderElection} with the default timings, and a reconciler that records when
 * it first saw each object.
 */
final class Replica {

    static final String LEASE_NAME = "bench-operator-leader";

    private final KubernetesClient client;
    private final LeaderElection election;
    private final ControllerManager manager;
    private final Map<String, CompletableFuture<Long>> firstReconciles = new ConcurrentHashMap<>();
    private final LeaseCalls crash = new LeaseCalls();

    private Replica(ServerSession session, String name) {
        client = new KubernetesClientBuilder()
                .withConfig(ClientFactory.config(session.masterUrl(), session.namespace()))
                .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("crash", crash))
                .build();
        election = new LeaderElection(client,
                LeaderElectionSettings.builder(session.namespace(), LEASE_NAME, name).build(),
                state -> { }); // on-lost=exit would end the JVM: the benchmark only records
        manager = ControllerManager.builder(client).workGate(election).build();
        manager.register(ControllerConfig.builder("bench", BenchResource.class).build(), new FirstSeen());
    }

    static Replica start(ServerSession session, String name) {
        Replica replica = new Replica(session, name);
        replica.manager.start();
        return replica;
    }

    LeaderElection election() {
        return election;
    }

    void awaitLeading(Duration timeout) throws TimeoutException {
        await(() -> election.state().role() == Role.LEADER, timeout, "leading");
    }

    void awaitStandingBy(Duration timeout) throws TimeoutException {
        await(() -> manager.hasSynced() && election.state().role() == Role.STANDBY
                && election.state().holder() != null, timeout, "standing by");
    }

    /** The System.nanoTime() of the first reconcile of {@code name}. */
    long awaitFirstReconcile(String name, Duration timeout) throws InterruptedException, ExecutionException,
            TimeoutException {
        return firstReconciles.computeIfAbsent(name, key -> new CompletableFuture<>())
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A graceful stop, as on SIGTERM. */
    void stop() {
        crash.resume();
        manager.stop();
        client.close();
    }

    /**
     * As if the process died: its Lease calls hang from now on, so the Lease is neither renewed nor
     * released. (Closing the client instead would close its watches while the mock server sends
     * to them, which stalls the mock's event loop; see MockApiServer.)
     */
    void crash() {
        crash.hang();
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what)
            throws TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("replica not " + what + " after " + timeout);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** Makes this replica's Lease reads and writes hang while {@link #hang() hung}. */
    private static final class LeaseCalls implements Interceptor {
        private volatile CountDownLatch resumed = new CountDownLatch(0);

        void hang() {
            resumed = new CountDownLatch(1);
        }

        void resume() {
            resumed.countDown();
        }

        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            CountDownLatch current = resumed;
            String query = request.uri().getRawQuery();
            if (current.getCount() == 0 || !request.uri().getPath().contains("/leases/") || query != null) {
                return;
            }
            try {
                current.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    private final class FirstSeen implements ResourceReconciler<BenchResource> {
        @Override
        public Result reconcile(BenchResource resource, ReconcileContext<BenchResource> context) {
            long now = System.nanoTime();
            firstReconciles.computeIfAbsent(resource.getMetadata().getName(), key -> new CompletableFuture<>())
                    .complete(now);
            return Result.done();
        }
    }
}
