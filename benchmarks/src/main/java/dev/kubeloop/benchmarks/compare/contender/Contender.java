package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.contender.josdk.JosdkContender;
import dev.kubeloop.benchmarks.compare.contender.kubeloop.KubeloopContender;
import dev.kubeloop.benchmarks.compare.contender.springboot.SpringBootFloorContender;

/**
 * One way of watching and reconciling the benchmark's objects, run alone in its own JVM. Every
 * contender calls {@link ReconcileProbe#reconcileStarted} first thing per object, and all but
 * "bound" then write {@code status.observedGeneration} through the status subresource.
 */
public interface Contender extends AutoCloseable {

    /** Starts watching and reconciling; returns once the contender's caches are synced. */
    void start() throws Exception;

    /** Stops everything the contender started. */
    @Override
    void close();

    static Contender create(ContenderOptions options, ReconcileProbe probe) {
        return switch (options.contender()) {
            case "bound" -> new BoundContender(options, probe);
            case "bound+patch" -> new BoundPatchContender(options, probe);
            case "kubeloop" -> new KubeloopContender(options, probe);
            case "kubeloop+trace10" -> new KubeloopContender(options, probe, 0.1);
            case "kubeloop+trace100" -> new KubeloopContender(options, probe, 1.0);
            case KubeloopContender.WITH_METRICS -> new KubeloopContender(options, probe, -1, true);
            // the same application, started by its launch settings from the code Spring AOT generated for it
            case KubeloopContender.SPRING_AOT -> new KubeloopContender(options, probe);
            case "josdk" -> new JosdkContender(options, probe, false);
            case JosdkContender.WITH_METRICS -> new JosdkContender(options, probe, true);
            case "spring-boot" -> new SpringBootFloorContender();
            default -> throw new IllegalArgumentException("unknown contender " + options.contender());
        };
    }
}
