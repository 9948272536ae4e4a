package dev.kubeloop.autoconfigure;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Log levels the starter sets by default, below every property source a user has (any
 * {@code logging.level.*} they set wins). fabric8 logs the expected failures of a distributed
 * system with whole stack traces, once per retry: its {@code LeaderElector} every failed Lease
 * request (48 frames, every retry period, whenever a Lease is lost or the API server is
 * unreachable), its informers' {@code Reflector} every failed re-list, its watch manager every
 * watch connection error after the tenth. Kubeloop logs one line when each starts failing, with the
 * reason, and one when it recovers (its leader election, and {@code ListWatchMonitor} for
 * informers), so those loggers are turned down to the level of their real errors (an elector or an
 * informer that stops for good), which stay.
 */
final class KubeloopLoggingDefaults implements EnvironmentPostProcessor {

    static final String LEADER_ELECTOR_LEVEL =
            "logging.level.io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector";
    /** Logs each failed re-list of an informer with its trace ("will retry"); ERROR: "will stop". */
    static final String REFLECTOR_LEVEL = "logging.level.io.fabric8.kubernetes.client.informers.impl.cache.Reflector";
    /** Logs at INFO, with the trace, every watch connection error after the tenth. */
    static final String WATCH_MANAGER_LEVEL =
            "logging.level.io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager";
    private static final Map<String, String> DEFAULTS = Map.of(LEADER_ELECTOR_LEVEL, "ERROR", REFLECTOR_LEVEL,
            "ERROR", WATCH_MANAGER_LEVEL, "WARN");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> unset = new HashMap<>();
        DEFAULTS.forEach((property, level) -> {
            if (!environment.containsProperty(property)) {
                unset.put(property, level);
            }
        });
        if (!unset.isEmpty()) {
            DefaultPropertiesPropertySource.addOrMerge(unset, environment.getPropertySources());
        }
    }
}
