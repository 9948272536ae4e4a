package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>Tracing (issue 31): Brave's Spring Boot module is on the benchmarks' class path, so "kubeloop"
 * switches tracing off: {@code kubeloop.tracing.enabled=false} and {@link #WITHOUT_TRACING}, Spring
 * Boot's tracing auto-configurations excluded, so its start builds no Brave tracer either (the
 * runtime's untraced path and the start of an application without the dependency; runs before
 * 51e4cd9 set {@code management.tracing.enabled=false} instead, which Boot 4 ignores, and so built
 * Brave's beans); "kubeloop+trace10" and
 * "kubeloop+trace100" trace with sampling 0.1 and 1.0. Spans are finished in process and exported
 * nowhere (no reporter): the cost measured is Kubeloop's observations, Brave's spans, the MDC and
 * the propagation headers, not an exporter's encoding and sending.
 */
public final class KubeloopContender implements Contender {

    /**
     * Spring Boot's tracing auto-configurations, excluded where a contender stands for an
     * application without a tracing dependency (the benchmarks' class path has Brave for the traced
     * contenders).
     */
    public static final String WITHOUT_TRACING = "spring.autoconfigure.exclude="
            + "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.brave.autoconfigure.zipkin.ZipkinWithBraveTracingAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.autoconfigure.otlp.OtlpExemplarsAutoConfiguration,"
            + "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration";

    private final ContenderOptions options;
    private final ReconcileProbe probe;
    /** The sampling probability; negative: tracing off. */
    private final double sampling;
    private ConfigurableApplicationContext context;

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe) {
        this(options, probe, -1);
    }

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe, double sampling) {
        this.options = options;
        this.probe = probe;
        this.sampling = sampling;
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
                .properties(properties())
                .run();
        if (startupSteps != null) {
            StartupSteps.print(startupSteps);
        }
    }

    private String[] properties() {
        List<String> properties = new ArrayList<>(List.of(
                "kubeloop.reconcilers.benchresource.namespaces=" + options.namespace(),
                "kubeloop.reconcilers.benchresource.workers=" + options.workers(),
                "kubeloop.tracing.enabled=" + (sampling >= 0),
                "management.tracing.sampling.probability=" + Math.max(0, sampling)));
        if (sampling < 0) {
            properties.add(WITHOUT_TRACING);
        }
        return properties.toArray(String[]::new);
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
        }
    }
}
