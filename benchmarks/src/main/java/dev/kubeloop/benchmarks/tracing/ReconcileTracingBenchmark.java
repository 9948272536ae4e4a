package dev.kubeloop.benchmarks.tracing;

import brave.context.slf4j.MDCScopeDecorator;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.sampler.Sampler;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.observation.ObservationTracing;
import dev.kubeloop.runtime.Tracing;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import java.util.HashMap;
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
 * What tracing adds to one reconcile, apart from the API server's variance (issue 31): the spans a
 * reconcile that writes its status makes, through the runtime's {@link Tracing} seam on a Micrometer
 * {@link ObservationRegistry} with Brave, set up as Spring Boot sets it up (the tracing handlers in a
 * first-matching composite, W3C propagation, the trace ids in the MDC). Spans are finished and
 * reported nowhere. No meter handler: micrometer-core is not on the benchmarks' class path (the
 * side-by-side contenders run without metrics), and an application's observation timers are a cost
 * of its metrics, paid with tracing off too. With tracing off the runtime makes none of these calls: it reads
 * {@link Tracing#on()} once per reconcile ({@link #off}).
 *
 * <p>The figure per reconcile divided by the operator's CPU per change in the latency scenario
 * (docs/performance.md) is tracing's share of a reconcile's cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ReconcileTracingBenchmark {

    /** Brave's sampling probability. */
    @Param({"0.1", "1.0"})
    public float sampling;

    private brave.Tracing braveTracing;
    private Tracing tracing;
    private final ObjectKey key = ObjectKey.of("ns", "bench-00001");
    private final BenchResource object = BenchObjects.create("ns", "bench-00001");
    private final Map<String, String> headers = new HashMap<>();

    @Setup
    public void setUp() {
        object.getMetadata().setGeneration(3L);
        braveTracing = brave.Tracing.newBuilder()
                .localServiceName("bench")
                .sampler(Sampler.create(sampling))
                .propagationFactory(new W3CPropagation())
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder()
                        .addScopeDecorator(MDCScopeDecorator.newBuilder().build()).build())
                .build();
        BraveTracer tracer = new BraveTracer(braveTracing.tracer(), new BraveCurrentTraceContext(braveTracing.currentTraceContext()),
                new BraveBaggageManager());
        BravePropagator propagator = new BravePropagator(braveTracing);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        tracing = new ObservationTracing(registry, Tracing.DEFAULT_ANNOTATION);
    }

    @TearDown
    public void tearDown() {
        braveTracing.close();
    }

    /** The untraced runtime's whole cost: one read of {@code on()} per reconcile. */
    @Benchmark
    public boolean off() {
        return Tracing.OFF.on();
    }

    /**
     * A traced reconcile that writes its status: the reconcile's span (made current), a
     * {@code status} step with its PATCH request span (context injected into the headers), ended.
     */
    @Benchmark
    public Object reconcileWithStatusWrite() {
        headers.clear();
        Tracing.Span span = tracing.reconcile(new Tracing.Reconcile("bench", key, object, 0, 1, "change", null,
                120_000L, null));
        try (Tracing.Scope scope = span.open()) {
            Tracing.Span step = span.child("status", key);
            try (Tracing.Scope stepScope = step.open()) {
                Tracing.Request request = step.request("PATCH",
                        "/apis/bench.kubeloop.dev/v1/namespaces/ns/benchresources/bench-00001/status", headers::put);
                request.response(200);
            }
            step.end("success", null);
        }
        span.end("success", null);
        return headers;
    }
}
