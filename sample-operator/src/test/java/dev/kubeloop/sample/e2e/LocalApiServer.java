package dev.kubeloop.sample.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kube-apiserver of {@code scripts/local-apiserver.sh}, for the tests that do to the API server
 * what only its owner can: restart it, compact its etcd. The script's path comes from the system
 * property {@value #SCRIPT_PROPERTY} (the e2e profile sets it). Against any other cluster (kind,
 * k3d, a real one) those tests are skipped, with the reason.
 */
final class LocalApiServer {

    static final String SCRIPT_PROPERTY = "e2e.apiserver.script";

    private final Path script;

    private LocalApiServer(Path script) {
        this.script = script;
    }

    /**
     * The script's apiserver if it is the cluster under test ({@code KUBECONFIG} is the script's
     * kubeconfig and the script reports it running); otherwise the test is skipped.
     */
    static LocalApiServer assumeUnderTest() {
        String location = System.getProperty(SCRIPT_PROPERTY, "");
        assumeTrue(!location.isBlank(), "Skipped: needs -D" + SCRIPT_PROPERTY
                + "=<path to scripts/local-apiserver.sh> (the e2e profile sets it)");
        LocalApiServer server = new LocalApiServer(Path.of(location).toAbsolutePath().normalize());
        String kubeconfig = System.getenv("KUBECONFIG");
        Path ours = Path.of(server.run(60, "kubeconfig").trim());
        assumeTrue(kubeconfig != null && !kubeconfig.isBlank() && samePath(Path.of(kubeconfig), ours),
                "Skipped: this test restarts kube-apiserver or compacts etcd, which only works on the API server of "
                        + "scripts/local-apiserver.sh (KUBECONFIG=" + ours + "); KUBECONFIG is " + kubeconfig);
        return server;
    }

    /** Stops kube-apiserver (etcd keeps running); {@link #start()} brings it back on the same etcd and port. */
    void stopKubeApiserver() {
        run(60, "stop-apiserver");
    }

    /** Starts whatever of etcd and kube-apiserver is not running; returns once kube-apiserver is ready. */
    void start() {
        run(180, "start");
    }

    /**
     * Stops kube-apiserver, moves etcd's revision on and compacts it, and starts kube-apiserver
     * again: every resourceVersion a client held has expired, so re-watching from one answers
     * 410 Gone.
     */
    void restartWithCompactedEtcd() {
        run(180, "restart", "--compact");
    }

    /** What etcd stores under {@code key}: custom resources as JSON, in the version the API server stored them. */
    String etcdGet(String key) {
        return run(60, "etcd-get", key);
    }

    private String run(long timeoutSeconds, String... arguments) {
        return Script.run(script, timeoutSeconds, arguments);
    }

    private static boolean samePath(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }
}
