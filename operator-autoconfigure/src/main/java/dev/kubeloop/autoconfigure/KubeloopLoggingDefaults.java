package dev.kubeloop.autoconfigure;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Log levels the starter sets by default, below every property source a user has (any
 * {@code logging.level.*} they set wins): fabric8's {@code LeaderElector} at ERROR, because it logs
 * every failed Lease request with its whole stack trace (48 frames, every retry period, each time
 * a Lease is lost or the API server is unreachable) while Kubeloop's leader election logs one line
 * when Lease requests start failing, one when they succeed again and one when the Lease is lost.
 * Its ERROR lines (an elector that ended on an unexpected error) stay.
 */
final class KubeloopLoggingDefaults implements EnvironmentPostProcessor {

    static final String LEADER_ELECTOR_LEVEL =
            "logging.level.io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.containsProperty(LEADER_ELECTOR_LEVEL)) {
            DefaultPropertiesPropertySource.addOrMerge(Map.of(LEADER_ELECTOR_LEVEL, "ERROR"),
                    environment.getPropertySources());
        }
    }
}
