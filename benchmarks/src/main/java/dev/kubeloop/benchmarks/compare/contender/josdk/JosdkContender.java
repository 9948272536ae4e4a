package dev.kubeloop.benchmarks.compare.contender.josdk;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import io.javaoperatorsdk.operator.Operator;

/**
 * "josdk": {@code io.javaoperatorsdk:operator-framework-core} with W reconciliation threads and
 * the shared client configuration. Server-side apply for status patches is switched off (JOSDK
 * then sends a JSON patch computed from the diff), because the mock server cannot apply; the same
 * setting is kept on a real server so the two tables compare the same requests.
 * {@link Operator#start()} returns once the informers are synced.
 */
public final class JosdkContender implements Contender {

    private final Operator operator;

    public JosdkContender(ContenderOptions options, ReconcileProbe probe) {
        operator = new Operator(overrider -> overrider
                .withKubernetesClient(ClientFactory.create(options.masterUrl(), options.namespace()))
                .withConcurrentReconciliationThreads(options.workers())
                .withUseSSAToPatchPrimaryResource(false)
                .withCloseClientOnStop(true));
        operator.register(new JosdkBenchReconciler(probe), config -> config.settingNamespace(options.namespace()));
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
