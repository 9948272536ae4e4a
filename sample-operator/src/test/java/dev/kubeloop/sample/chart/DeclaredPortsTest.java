package dev.kubeloop.sample.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeloop.mock.EmbeddedApiServer;
import dev.kubeloop.sample.SampleOperatorApplication;
import dev.kubeloop.test.webhook.TestCertificates;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The chart declares every port the operator's JVM opens: the sample runs in this JVM with exactly
 * the environment the chart's Deployment gives its container (ports made free ones, the mounted
 * certificate a throwaway one, the cluster an embedded API server), and the TCP sockets it listens
 * on, read from Linux's {@code /proc} ({@link ListeningSockets}), are the container's
 * {@code containerPort}s, no more and no fewer.
 */
class DeclaredPortsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    @SuppressWarnings("try") // the operator's context is held open for the check, never read
    void theOperatorListensOnExactlyThePortsItsContainerDeclares(String described, Map<String, Object> values)
            throws Exception {
        assumeTrue(ListeningSockets.supported(), "needs Linux's /proc");
        Map<String, Object> chartValues = new HashMap<>(values);
        chartValues.put("managementPort", String.valueOf(freePort()));
        chartValues.put("webhooks.port", String.valueOf(freePort()));
        Container container = RenderedChart.render(chartValues).one(Deployment.class).getSpec().getTemplate()
                .getSpec().getContainers().get(0);
        Set<Integer> declared = new TreeSet<>(container.getPorts().stream().map(ContainerPort::getContainerPort)
                .toList());
        Map<String, Object> environment = environment(container);

        try (EmbeddedApiServer apiServer = EmbeddedApiServer.start().createAllFromClasspath(getClass().getClassLoader(),
                "META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml")) {
            Set<Integer> before = ListeningSockets.ports();
            StandardEnvironment chartEnvironment = new StandardEnvironment();
            chartEnvironment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("chart-systemEnvironment", environment));
            try (ConfigurableApplicationContext operator = new SpringApplicationBuilder(SampleOperatorApplication.class)
                    .environment(chartEnvironment)
                    .initializers(context -> context.getBeanFactory().registerSingleton("kubernetesClient",
                            apiServer.client()))
                    .run()) {
                Set<Integer> opened = new TreeSet<>(ListeningSockets.ports());
                opened.removeAll(before);
                assertThat(opened).as("ports the operator listens on, against the container's ports %s", declared)
                        .isEqualTo(declared);
            }
        }
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("webhooks off", Map.of("webhooks.enabled", "false")),
                Arguments.of("single replica, write access", Map.of("replicaCount", "1",
                        "leaderElection.enabled", "false", "introspectionWriteAccess", "true")));
    }

    /**
     * The container's environment as the kubelet would set it, but for what the pod has and this
     * test does not: the downward API (a name and namespace instead), the JVM options (this JVM
     * runs already), and the mounted serving certificate (a throwaway one).
     */
    private static Map<String, Object> environment(Container container) throws IOException {
        Map<String, Object> environment = new LinkedHashMap<>();
        for (EnvVar variable : container.getEnv()) {
            if (variable.getValue() != null && !variable.getName().equals("JAVA_TOOL_OPTIONS")) {
                environment.put(variable.getName(), variable.getValue());
            }
        }
        environment.put("POD_NAME", "declared-ports-test");
        environment.put("POD_NAMESPACE", RenderedChart.NAMESPACE);
        if (environment.containsKey("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_CERTIFICATE")) {
            Path certificates = TestCertificates.forLoopback().writeTo(Files.createTempDirectory("declared-ports"));
            environment.put("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_CERTIFICATE",
                    certificates.resolve("tls.crt").toUri().toString());
            environment.put("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_PRIVATEKEY",
                    certificates.resolve("tls.key").toUri().toString());
        }
        return environment;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
