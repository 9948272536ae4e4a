package dev.kubeloop.test;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Locale;

/**
 * The API server one {@link KubeloopTest} class runs against, with a client for it. Closed with
 * the test's application context.
 */
public interface TestCluster extends AutoCloseable {

    /** The property (system property, or environment variable {@code KUBELOOP_TEST_CLUSTER}) that chooses the server. */
    String MODE_PROPERTY = "kubeloop.test.cluster";

    /** A client for the server; its default namespace is {@link #namespace()}. */
    KubernetesClient client();

    /** The namespace the test's objects go to. */
    String namespace();

    /** True for a real cluster, false for the embedded mock server. */
    boolean real();

    /** Marks that a test failed, for {@link KubeloopTest#keepNamespaceOnFailure()}. */
    void testFailed();

    @Override
    void close();

    /** Starts the server the environment asks for and applies {@code crds} (manifest contents). */
    static TestCluster start(String testName, List<String> crds, boolean keepNamespaceOnFailure) {
        return useRealCluster() ? RealTestCluster.start(testName, crds, keepNamespaceOnFailure)
                : MockTestCluster.start(crds);
    }

    /** {@code kubeconfig} or {@code mock}; {@code auto} (the default) means kubeconfig when {@code KUBECONFIG} is set. */
    static boolean useRealCluster() {
        String mode = System.getProperty(MODE_PROPERTY, System.getenv().getOrDefault("KUBELOOP_TEST_CLUSTER", "auto"))
                .trim().toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "kubeconfig", "real" -> true;
            case "mock" -> false;
            case "auto" -> System.getenv("KUBECONFIG") != null && !System.getenv("KUBECONFIG").isBlank();
            default -> throw new IllegalStateException("Invalid " + MODE_PROPERTY + " '" + mode
                    + "': expected auto, mock or kubeconfig");
        };
    }
}
