package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * "kubeloop": {@link KubeloopBenchApp} started with {@link SpringApplicationBuilder}, web off,
 * through the real auto-configuration. The namespace and worker count come in as
 * {@code kubeloop.reconcilers.benchresource.*} properties; the probe and the options are
 * registered as beans before the context refreshes. The context's refresh returns once the
 * controllers' caches are synced (Kubeloop's lifecycle waits for them).
 */
public final class KubeloopContender implements Contender {

    private final ContenderOptions options;
    private final ReconcileProbe probe;
    private ConfigurableApplicationContext context;

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe) {
        this.options = options;
        this.probe = probe;
    }

    @Override
    public void start() {
        BufferingApplicationStartup startupSteps = StartupSteps.recorderIfEnabled();
        SpringApplicationBuilder builder = new SpringApplicationBuilder(KubeloopBenchApp.class);
        if (startupSteps != null) {
            builder.applicationStartup(startupSteps);
        }
        context = builder
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .initializers(applicationContext -> {
                    applicationContext.getBeanFactory().registerSingleton("reconcileProbe", probe);
                    applicationContext.getBeanFactory().registerSingleton("contenderOptions", options);
                })
                .properties(
                        "kubeloop.reconcilers.benchresource.namespaces=" + options.namespace(),
                        "kubeloop.reconcilers.benchresource.workers=" + options.workers())
                .run();
        if (startupSteps != null) {
            StartupSteps.print(startupSteps);
        }
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
        }
    }
}
