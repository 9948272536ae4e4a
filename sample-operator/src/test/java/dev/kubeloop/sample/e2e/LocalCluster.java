package dev.kubeloop.sample.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The one-node cluster of {@code scripts/local-cluster.sh} the cluster tests run on: its script
 * (system property {@value #SCRIPT_PROPERTY}, set by the cluster profile), the images it imports,
 * the waits the tests share, and the Pods' logs kept for a failed run.
 */
final class LocalCluster {

    static final String SCRIPT_PROPERTY = "cluster.script";
    static final String JAR_PROPERTY = "cluster.operator.jar";

    private final Path script;

    private LocalCluster(Path script) {
        this.script = script;
    }

    /** The script's cluster; the test is skipped unless the cluster profile runs it. */
    static LocalCluster assumeRunning() {
        String location = System.getProperty(SCRIPT_PROPERTY, "");
        assumeTrue(!location.isBlank(), "Skipped: needs -D" + SCRIPT_PROPERTY + " (mvn -Pcluster)");
        LocalCluster cluster = new LocalCluster(Path.of(location).toAbsolutePath().normalize());
        String kubeconfig = System.getenv("KUBECONFIG");
        assumeTrue(kubeconfig != null && Path.of(kubeconfig).equals(cluster.kubeconfig()),
                "Skipped: KUBECONFIG is not the local cluster's (" + cluster.kubeconfig() + ")");
        return cluster;
    }

    Path kubeconfig() {
        String[] lines = run(60, "kubeconfig").trim().split("\n");
        return Path.of(lines[lines.length - 1]);
    }

    /** The API server's audit log: what service accounts wrote (scripts/local-cluster.sh). */
    Path auditLog() {
        String[] lines = run(60, "audit-log").trim().split("\n");
        return Path.of(lines[lines.length - 1]);
    }

    /** Builds {@code image} from the JRE image and the jar and imports it into the node's containerd. */
    void loadJar(Path jar, String image) {
        run(300, "load-jar", jar.toString(), image);
    }

    /**
     * Installs the chart of a project generated from the archetype as its README says, with its
     * defaults but the image: {@code image:cluster-test}, built here from the project's jar instead
     * of {@code docker build}. A release an earlier run left is uninstalled first.
     */
    void installGeneratedChart(Path project, String release, String namespace, String image) throws IOException {
        loadJar(bootJar(project), image + ":cluster-test");
        Helm.uninstall(release).withNamespace(namespace).withKubeConfig(kubeconfig()).ignoreNotFound().call();
        new Helm(project.resolve("chart")).install().withName(release).withNamespace(namespace).createNamespace()
                .withKubeConfig(kubeconfig())
                .set("image.repository", image).set("image.tag", "cluster-test").set("image.pullPolicy", "Never")
                .waitReady().withTimeout(300).call();
    }

    /** Keeps the Pods' logs and the events under {@code logs}, uninstalls the release and waits for its Pods to go. */
    void uninstall(KubernetesClient client, String release, String namespace, Path logs) {
        keepLogs(client, logs);
        Helm.uninstall(release).withNamespace(namespace).withKubeConfig(kubeconfig()).ignoreNotFound().call();
        await("the Pods of release " + release + " gone", Duration.ofSeconds(300),
                () -> releasePods(client, namespace, release).isEmpty());
    }

    /** SIGKILLs a container's process through containerd: a crash, which kubelet answers with a restart. */
    void killContainer(String containerId) {
        run(60, "kill-container", containerId);
    }

    static Path operatorJar() {
        Path jar = Path.of(System.getProperty(JAR_PROPERTY, "target/missing.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("No operator jar at " + jar + ": the cluster profile runs after package");
        }
        return jar;
    }

    /**
     * A project {@code scripts/archetype-check.sh} generated and built, at the path system property
     * {@code property} names. With {@code -Dcluster.generated.required=true} (.ci/run, where
     * archetype-check runs first) it must be there; elsewhere the test is skipped without it.
     */
    static Path generatedProject(String property) {
        Path project = Path.of(System.getProperty(property, "target/missing-project")).toAbsolutePath().normalize();
        boolean built = Files.isDirectory(project.resolve("target"));
        if (!Boolean.getBoolean("cluster.generated.required")) {
            assumeTrue(built, "Skipped: no generated project at " + project + " (run scripts/archetype-check.sh)");
        }
        if (!built) {
            throw new AssertionError("No project at " + project + ": scripts/archetype-check.sh generates and builds it");
        }
        return project;
    }

    /** The runnable jar a generated project's build made (not the plain one). */
    static Path bootJar(Path project) throws IOException {
        try (Stream<Path> files = Files.list(project.resolve("target"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar")
                    && !f.getFileName().toString().endsWith("-plain.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no jar in " + project.resolve("target")));
        }
    }

    /** The Pods of a Helm release that are not being deleted. */
    static List<Pod> releasePods(KubernetesClient client, String namespace, String release) {
        return client.pods().inNamespace(namespace).withLabel("app.kubernetes.io/instance", release).list()
                .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    /** Polls {@code condition} every 250 ms until it holds; fails after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                last = null;
            } catch (KubernetesClientException | IllegalStateException e) {
                last = e;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for " + what, e);
            }
        }
        throw new AssertionError("Not within " + timeout.toSeconds() + " s: " + what, last);
    }

    /** Every Pod's logs (and the previous container's, after a restart) and all events, under {@code dir}. */
    static void keepLogs(KubernetesClient client, Path dir) {
        try {
            Files.createDirectories(dir);
            StringBuilder events = new StringBuilder();
            for (Event event : client.v1().events().inAnyNamespace().list().getItems()) {
                events.append(event.getLastTimestamp()).append(' ').append(event.getMetadata().getNamespace())
                        .append(' ').append(event.getInvolvedObject().getKind()).append('/')
                        .append(event.getInvolvedObject().getName()).append(' ').append(event.getReason()).append(": ")
                        .append(event.getMessage()).append('\n');
            }
            Files.writeString(dir.resolve("events.txt"), events.toString(), StandardCharsets.UTF_8);
            StringBuilder pods = new StringBuilder();
            for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
                String name = pod.getMetadata().getNamespace() + "_" + pod.getMetadata().getName();
                pods.append(name).append(' ').append(pod.getStatus().getPhase()).append('\n');
                List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses() == null ? List.of()
                        : pod.getStatus().getContainerStatuses();
                for (ContainerStatus status : statuses) {
                    var container = client.pods().inNamespace(pod.getMetadata().getNamespace())
                            .withName(pod.getMetadata().getName()).inContainer(status.getName());
                    writeLog(dir.resolve(name + "_" + status.getName() + ".log"), container::getLog);
                    if (status.getRestartCount() != null && status.getRestartCount() > 0) {
                        writeLog(dir.resolve(name + "_" + status.getName() + ".previous.log"),
                                () -> container.terminated().getLog());
                    }
                }
            }
            Files.writeString(dir.resolve("pods.txt"), pods.toString(), StandardCharsets.UTF_8);
        } catch (IOException | KubernetesClientException e) {
            System.err.println("Could not keep the cluster's logs in " + dir + ": " + e);
        }
    }

    private static void writeLog(Path file, java.util.function.Supplier<String> log) throws IOException {
        try {
            Files.writeString(file, log.get(), StandardCharsets.UTF_8);
        } catch (KubernetesClientException e) {
            Files.writeString(file, "(no log: " + e.getMessage() + ")\n", StandardCharsets.UTF_8);
        }
    }

    private String run(long timeoutSeconds, String... arguments) {
        return Script.run(script, timeoutSeconds, arguments);
    }
}
