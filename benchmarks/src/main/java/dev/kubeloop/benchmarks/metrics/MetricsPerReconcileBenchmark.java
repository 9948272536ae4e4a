package dev.kubeloop.benchmarks.metrics;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import dev.kubeloop.benchmarks.compare.contender.josdk.JosdkBenchReconciler;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.controller.WriteOperation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Kubeloop's metrics cost one reconcile that writes its status once: every hook of
 * {@link KubeloopMetrics}' listener such a reconcile calls (the key queued, taken, done; the write
 * counted; the cache's lag recorded; the reconcile's result counted and timed), on the registry the
 * starter brings ({@code prometheus}) and on Micrometer's simplest ({@code simple}). The cold start
 * of the side-by-side harness cannot resolve this cost: its rounds spread by a tenth.
 *
 * <p>{@code josdkReconcile}: the same for JOSDK 5.3.2's {@code MicrometerMetricsV2}, every call
 * its event processor and controller make of {@code Metrics} for one reconcile (event received,
 * submitted, started, the controller's execution timed, succeeded, finished), on a controller an
 * {@link Operator} registered (which registers its gauges and timer), never started.
 *
 * <p>One thread by default; {@code -t 2} has two record into the same meters at once, as workers do
 * (this machine has two cores).
 *
 * <p>Run: {@code ./mvnw -B -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar MetricsPerReconcileBenchmark [-t 2]}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class MetricsPerReconcileBenchmark {

    @Param({"prometheus", "simple"})
    public String registry;

    private ControllerListener metrics;
    private Metrics josdkMetrics;
    private KubernetesClient josdkClient;
    private JosdkReconcileArguments josdkObject;
    private final ReconcileReport report = new ReconcileReport("benchresource", ObjectKey.of("bench", "object-1"),
            ReconcileOutcome.SUCCESS, Duration.ZERO, null, Duration.ofMillis(3), 0, 0);
    private final Duration cacheLag = Duration.ofMillis(2);

    @Setup
    public void register() {
        metrics = new KubeloopMetrics(newRegistry()).controllerRegistered(
                ControllerConfig.builder("benchresource", BenchResource.class).build());

        MeterRegistry josdkMeters = newRegistry();
        josdkMetrics = MicrometerMetricsV2.newBuilder(josdkMeters).build();
        // a client to no server: registering builds the controller and calls controllerRegistered; nothing starts
        josdkClient = ClientFactory.create("https://127.0.0.1:1", "bench");
        Operator operator = new Operator(overrider -> overrider.withKubernetesClient(josdkClient)
                .withMetrics(josdkMetrics));
        String name = operator.register(new JosdkBenchReconciler(new ReconcileProbe(null), StatusWrite.SSA))
                .getConfiguration().getName();
        josdkObject = new JosdkReconcileArguments(name);
        if (josdkMeters.getMeters().isEmpty()) {
            throw new IllegalStateException("JOSDK registered no meters: its controller was not registered");
        }
    }

    /** A registry of the kind the parameter names, one per framework so that neither sees the other's meters. */
    private MeterRegistry newRegistry() {
        return registry.equals("prometheus") ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)
                : new SimpleMeterRegistry();
    }

    @TearDown
    public void close() {
        josdkClient.close();
    }

    /** The hooks of one reconcile with one status apply, in the order the runtime calls them. */
    @Benchmark
    public void kubeloopReconcile() {
        metrics.added(0);
        metrics.dequeued(150_000);
        metrics.reconcileStarted(report.key());
        metrics.written(WriteOperation.APPLY_STATUS, false);
        metrics.reconcileFinished(report);
        metrics.done(3_100_000);
        metrics.cacheCaughtUp(cacheLag);
    }

    /** JOSDK's calls of its metrics for one reconcile, in the order its event processor makes them. */
    @Benchmark
    public String josdkReconcile() throws Exception {
        JosdkReconcileArguments held = josdkObject;
        josdkMetrics.eventReceived(held.event, held.metadata);
        josdkMetrics.reconciliationSubmitted(held.resource, null, held.metadata);
        josdkMetrics.reconciliationStarted(held.resource, held.metadata);
        String result = josdkMetrics.timeControllerExecution(held.execution);
        josdkMetrics.reconciliationSucceeded(held.resource, held.metadata);
        josdkMetrics.reconciliationFinished(held.resource, null, held.metadata);
        return result;
    }

    /** What JOSDK hands its metrics for one object of one controller. */
    private static final class JosdkReconcileArguments {
        final BenchResource resource;
        final ResourceEvent event;
        final Map<String, Object> metadata;
        final Metrics.ControllerExecution<String> execution;

        JosdkReconcileArguments(String controller) {
            resource = BenchObjects.create("bench", "object-1");
            ResourceID id = ResourceID.fromResource(resource);
            event = new ResourceEvent(ResourceAction.UPDATED, id, resource);
            metadata = Map.of(Constants.CONTROLLER_NAME, controller);
            execution = new Metrics.ControllerExecution<>() {
                @Override
                public String name() {
                    return "reconcile";
                }

                @Override
                public String controllerName() {
                    return controller;
                }

                @Override
                public String successTypeName(String result) {
                    return "resource";
                }

                @Override
                public ResourceID resourceID() {
                    return id;
                }

                @Override
                public Map<String, Object> metadata() {
                    return metadata;
                }

                @Override
                public String execute() {
                    return "done";
                }
            };
        }
    }
}
