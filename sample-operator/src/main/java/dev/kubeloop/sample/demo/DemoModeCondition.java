package dev.kubeloop.sample.demo;

import dev.kubeloop.mock.EmbeddedApiServer;
import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Matches when the demo API server should run: {@code sample.demo=on}, or {@code auto} (the
 * default) and no cluster is configured: not inside a pod, no {@code KUBECONFIG} file, no
 * {@code ~/.kube/config}, no {@code kubernetes.master}. {@code off} never runs it.
 *
 * <p>The embedded API server is an optional dependency: on the class path of
 * {@code spring-boot:run} and the tests, left out of the packaged jar (Spring Boot's repackage
 * drops optional dependencies), so that the operator's image carries no API server. Without it
 * {@code auto} never matches and {@code on} fails start-up saying how to run the demo.
 */
class DemoModeCondition extends SpringBootCondition {

    static final String PROPERTY = "sample.demo";

    /** Named, not referenced: this class loads without the optional dependency. */
    private static final String EMBEDDED_API_SERVER = "dev.kubeloop.mock.EmbeddedApiServer";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return outcome(context.getEnvironment(), context.getClassLoader());
    }

    /** Whether demo mode applies in {@code environment} with the classes of {@code classLoader}, and why. */
    static ConditionOutcome outcome(Environment environment, ClassLoader classLoader) {
        String mode = environment.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        boolean present = ClassUtils.isPresent(EMBEDDED_API_SERVER, classLoader);
        return switch (mode) {
            case "on", "true" -> {
                if (!present) {
                    throw new IllegalStateException(PROPERTY + "=" + mode + " needs the embedded API server "
                            + "(dev.kubeloop:kubeloop-mock-apiserver), which the production jar leaves out: run the "
                            + "demo with ./mvnw -pl sample-operator -am spring-boot:run or java -jar "
                            + "kubeloop-sample-operator-<version>-demo.jar, or point this jar at a cluster");
                }
                yield ConditionOutcome.match(PROPERTY + "=" + mode);
            }
            case "off", "false" -> ConditionOutcome.noMatch(PROPERTY + "=" + mode);
            case "auto" -> !present ? ConditionOutcome.noMatch("no embedded API server in this jar")
                    : clusterConfigured(environment) == null
                    ? ConditionOutcome.match("no cluster configured")
                    : ConditionOutcome.noMatch(clusterConfigured(environment));
            default -> throw new IllegalStateException("Invalid value '" + mode + "' for property " + PROPERTY
                    + ": expected auto, on or off");
        };
    }

    /** Why a cluster counts as configured, or null. Only with the embedded API server present. */
    static String clusterConfigured(Environment environment) {
        return EmbeddedApiServer.configuredCluster(environment::getProperty).orElse(null);
    }
}
