package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class KubeloopLoggingDefaultsTest {

    @Test
    void fabric8sLoggersThatLogEveryRetryWithItsTraceAreTurnedDownByDefault() {
        StandardEnvironment environment = new StandardEnvironment();

        new KubeloopLoggingDefaults().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(KubeloopLoggingDefaults.LEADER_ELECTOR_LEVEL)).isEqualTo("ERROR");
        assertThat(environment.getProperty(KubeloopLoggingDefaults.REFLECTOR_LEVEL)).isEqualTo("ERROR");
        assertThat(environment.getProperty(KubeloopLoggingDefaults.WATCH_MANAGER_LEVEL)).isEqualTo("WARN");
    }

    @Test
    void aLevelTheUserSetWins() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application",
                Map.of(KubeloopLoggingDefaults.LEADER_ELECTOR_LEVEL, "DEBUG")));

        new KubeloopLoggingDefaults().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(KubeloopLoggingDefaults.LEADER_ELECTOR_LEVEL)).isEqualTo("DEBUG");
    }

    @Test
    void springBootAppliesItToAnApplication() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Empty.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false).run()) {
            assertThat(context.getEnvironment().getProperty(KubeloopLoggingDefaults.LEADER_ELECTOR_LEVEL))
                    .isEqualTo("ERROR");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}
