package dev.kubeloop.benchmarks.compare.contender.josdk;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import io.javaoperatorsdk.operator.Operator;

/**
 * "josdk": {@code io.javaoperatorsdk:operator-framework-core} with W reconciliation threads and
 * the shared client configuration. Server-side apply of the primary's status is on only when the
 * invocation writes with it ({@link StatusWrite#SSA}); with {@link StatusWrite#MERGE} the
 * reconciler sends the merge patch itself (see {@link JosdkBenchReconciler}).
 * {@link Operator#start()} returns once the informers are synced.
 */
public final class JosdkContender implements Contender {

    private final Operator operator;

    public JosdkContender(ContenderOptions options, ReconcileProbe probe) {
        operator = new Operator(overrider -> overrider
                .withKubernetesClient(ClientFactory.create(options.masterUrl(), options.namespace()))
                .withConcurrentReconciliationThreads(options.workers())
                .withUseSSAToPatchPrimaryResource(options.write() == StatusWrite.SSA)
                .withCloseClientOnStop(true));
        operator.register(new JosdkBenchReconciler(probe, options.write()), config -> config.settingNamespace(options.namespace()));
    }

    @Override
    public void start() {
        operator.start();
    }

    @Override
    public void close() {
        operator.stop();
    }
}
