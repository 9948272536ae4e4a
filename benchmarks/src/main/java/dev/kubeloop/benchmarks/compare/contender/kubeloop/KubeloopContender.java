package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
 *
 * <p>"kubeloop+spring-aot" is "kubeloop" started with {@code -Dspring.aot.enabled=true}: from the
 * bean definitions and initializer that Spring AOT generated for {@link KubeloopBenchApp} when the
 * benchmarks were built ({@code process-aot} in their pom), as an application built with
 * {@code spring-boot-maven-plugin}'s {@code process-aot} starts.
 */
public final class KubeloopContender implements Contender {

    /** The contender with a Prometheus registry, as the starter gives an application: Kubeloop's metrics on. */
    public static final String WITH_METRICS = "kubeloop+metrics";

    /** The contender started from the code Spring AOT generated at build time. */
    public static final String SPRING_AOT = "kubeloop+spring-aot";

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
    /** Whether the application has a meter registry, so that Kubeloop records its metrics. */
    private final boolean metrics;
    private ConfigurableApplicationContext context;

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe) {
        this(options, probe, -1);
    }

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe, double sampling) {
        this(options, probe, sampling, false);
    }

    public KubeloopContender(ContenderOptions options, ReconcileProbe probe, double sampling, boolean metrics) {
        this.options = options;
        this.probe = probe;
        this.sampling = sampling;
        this.metrics = metrics;
    }

    @Override
    public void start() {
        BufferingApplicationStartup startupSteps = StartupSteps.recorderIfEnabled();
        SpringApplicationBuilder builder = application(options, probe, sampling);
        if (metrics) {
            // the registry Spring Boot's Prometheus export makes from the starter's dependency (its metrics
            // auto-configuration is not on this class path: the other contenders keep the start they had)
            builder.initializers(applicationContext -> applicationContext.getBeanFactory()
                    .registerSingleton("prometheusMeterRegistry", new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        }
        if (startupSteps != null) {
            builder.applicationStartup(startupSteps);
        }
        context = builder.run();
        if (startupSteps != null) {
            StartupSteps.print(startupSteps);
        }
    }

    /**
     * The contender's application, also what {@link KubeloopBenchApp#main} hands Spring's AOT
     * processing: the same properties decide the same conditions at build time.
     */
    static SpringApplicationBuilder application(ContenderOptions options, ReconcileProbe probe, double sampling) {
        return new SpringApplicationBuilder(KubeloopBenchApp.class)
                // names the class whose generated initializer AOT mode loads (not ContenderMain, whose main runs)
                .main(KubeloopBenchApp.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .initializers(applicationContext -> {
                    applicationContext.getBeanFactory().registerSingleton("reconcileProbe", probe);
                    applicationContext.getBeanFactory().registerSingleton("contenderOptions", options);
                })
                .properties(properties(options, sampling));
    }

    private static String[] properties(ContenderOptions options, double sampling) {
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
            // in the contender's log: which registry the metrics went to, and that they were recorded
            context.getBeanProvider(MeterRegistry.class).ifAvailable(registry -> System.err.println(
                    "Kubeloop metrics at stop: " + registry.getClass().getSimpleName() + ", "
                            + registry.getMeters().size() + " meters; controller_runtime_reconcile_total "
                            + registry.find("controller_runtime_reconcile_total").counters().stream()
                                    .mapToDouble(counter -> counter.count()).sum()));
            context.close();
        }
    }
}
