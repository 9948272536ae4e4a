package dev.kubeloop.benchmarks.compare.contender.josdk;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * "josdk": {@code io.javaoperatorsdk:operator-framework-core} with W reconciliation threads and
 * the shared client configuration. Server-side apply of the primary's status is on only when the
 * invocation writes with it ({@link StatusWrite#SSA}); with {@link StatusWrite#MERGE} the
 * reconciler sends the merge patch itself (see {@link JosdkBenchReconciler}).
 * {@link Operator#start()} returns once the informers are synced.
 *
 * <p>"josdk+metrics": the same with JOSDK's own Micrometer metrics ({@code micrometer-support}'s
 * {@code MicrometerMetricsV2}, its bounded-cardinality default: per controller, not per object)
 * recording into a {@link PrometheusMeterRegistry}: JOSDK as an operator in production runs it, next
 * to "kubeloop+metrics". Plain "josdk" records none (JOSDK's default {@code Metrics.NOOP}), as plain
 * "kubeloop" has no registry.
 */
public final class JosdkContender implements Contender {

    /** JOSDK with its Micrometer metrics on. */
    public static final String WITH_METRICS = "josdk+metrics";

    private final Operator operator;
    /** Where "josdk+metrics" records; null for "josdk". */
    private final PrometheusMeterRegistry registry;

    public JosdkContender(ContenderOptions options, ReconcileProbe probe, boolean metrics) {
        registry = metrics ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) : null;
        operator = new Operator(overrider -> {
            overrider.withKubernetesClient(ClientFactory.create(options.masterUrl(), options.namespace()))
                    .withConcurrentReconciliationThreads(options.workers())
                    .withUseSSAToPatchPrimaryResource(options.write() == StatusWrite.SSA)
                    .withCloseClientOnStop(true);
            if (registry != null) {
                overrider.withMetrics(MicrometerMetricsV2.newBuilder(registry).build());
            }
        });
        operator.register(new JosdkBenchReconciler(probe, options.write()), config -> config.settingNamespace(options.namespace()));
    }

    @Override
    public void start() {
        operator.start();
    }

    @Override
    public void close() {
        operator.stop();
        if (registry != null) {
            // in the contender's log: the metrics were recorded, not only configured
            System.err.println("JOSDK metrics at stop: " + registry.getMeters().size() + " meters; "
                    + MicrometerMetricsV2.RECONCILIATIONS_SUCCESS + " "
                    + registry.find(MicrometerMetricsV2.RECONCILIATIONS_SUCCESS).counters().stream()
                            .mapToDouble(counter -> counter.count()).sum());
        }
    }
}
