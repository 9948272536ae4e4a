package dev.kubeloop.benchmarks.metrics;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.controller.WriteOperation;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Kubeloop's metrics cost one reconcile that writes its status once: every hook of
 * {@link KubeloopMetrics}' listener such a reconcile calls (the key queued, taken, done; the write
 * counted; the cache's lag recorded; the reconcile's result counted and timed), on the registry the
 * starter brings ({@code prometheus}) and on Micrometer's simplest ({@code simple}). The cold start
 * of the side-by-side harness cannot resolve this cost: its rounds spread by a tenth.
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
    private final ReconcileReport report = new ReconcileReport("benchresource", ObjectKey.of("bench", "object-1"),
            ReconcileOutcome.SUCCESS, Duration.ZERO, null, Duration.ofMillis(3), 0, 0);
    private final Duration cacheLag = Duration.ofMillis(2);

    @Setup
    public void register() {
        MeterRegistry meters = registry.equals("prometheus") ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)
                : new SimpleMeterRegistry();
        metrics = new KubeloopMetrics(meters).controllerRegistered(
                ControllerConfig.builder("benchresource", BenchResource.class).build());
    }

    /** The hooks of one reconcile with one status apply, in the order the runtime calls them. */
    @Benchmark
    public void oneReconcile() {
        metrics.added(0);
        metrics.dequeued(150_000);
        metrics.reconcileStarted(report.key());
        metrics.written(WriteOperation.APPLY_STATUS, false);
        metrics.reconcileFinished(report);
        metrics.done(3_100_000);
        metrics.cacheCaughtUp(cacheLag);
    }
}
