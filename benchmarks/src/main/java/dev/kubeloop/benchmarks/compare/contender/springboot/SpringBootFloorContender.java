package dev.kubeloop.benchmarks.compare.contender.springboot;

import dev.kubeloop.benchmarks.compare.contender.Contender;
import dev.kubeloop.benchmarks.compare.contender.kubeloop.KubeloopContender;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * "spring-boot": the start-up floor of any Spring Boot operator here, not an operator. The same
 * start as the "kubeloop" contender ({@link SpringApplicationBuilder}, web off, no banner, no
 * start-up info, every auto-configuration on the class path evaluated) with Kubeloop switched off
 * ({@code kubeloop.enabled=false}) and, like it, without Spring Boot's tracing auto-configurations
 * ({@link KubeloopContender#WITHOUT_TRACING}): no client, no informer, no reconcile. Ready when the context
 * has refreshed. Only the startup scenario runs it.
 */
public final class SpringBootFloorContender implements Contender {

    private ConfigurableApplicationContext context;

    @Override
    public void start() {
        context = new SpringApplicationBuilder(SpringBootFloorApp.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("kubeloop.enabled=false", KubeloopContender.WITHOUT_TRACING)
                .run();
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
        }
    }
}
