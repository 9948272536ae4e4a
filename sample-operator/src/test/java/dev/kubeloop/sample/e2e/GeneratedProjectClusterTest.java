package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new user's first deploy (issue 29, scenario 7): the project {@code scripts/archetype-check.sh}
 * generated from the archetype and built, its jar as an image, its own chart installed with its
 * defaults but the image, and the example of its README applied: the resource is reconciled by the
 * operator running as a Pod, and its validating webhook answers through its Service.
 */
class GeneratedProjectClusterTest {

    static final String RELEASE = "greeting";
    static final String NAMESPACE = "greeting-system";
    static final String IMAGE = "localhost/greeting-operator";
    static final String TAG = "cluster-test";
    static final Duration START = Duration.ofSeconds(300);
    static final ResourceDefinitionContext GREETINGS = new ResourceDefinitionContext.Builder()
            .withGroup("demo.example.com").withVersion("v1alpha1").withPlural("greetings").withKind("Greeting")
            .withNamespaced(true).build();

    static LocalCluster cluster;
    static KubernetesClient client;
    static Path project;

    @BeforeAll
    static void installTheGeneratedProjectsChart() throws IOException {
        cluster = LocalCluster.assumeRunning();
        project = generatedProject();
        client = new KubernetesClientBuilder().build();
        cluster.loadJar(jar(project), IMAGE + ":" + TAG);
        Helm.uninstall(RELEASE).withNamespace(NAMESPACE).withKubeConfig(cluster.kubeconfig()).ignoreNotFound().call();
        // the README's helm install, with the image built here instead of docker build
        new Helm(project.resolve("chart")).install().withName(RELEASE).withNamespace(NAMESPACE).createNamespace()
                .withKubeConfig(cluster.kubeconfig())
                .set("image.repository", IMAGE).set("image.tag", TAG).set("image.pullPolicy", "Never")
                .waitReady().withTimeout(300).call();
    }

    @AfterAll
    static void uninstall() {
        if (client == null) {
            return;
        }
        LocalCluster.keepLogs(client, Path.of("target/cluster-logs/generated"));
        Helm.uninstall(RELEASE).withNamespace(NAMESPACE).withKubeConfig(cluster.kubeconfig()).ignoreNotFound().call();
        LocalCluster.await("the generated operator's Pods gone", START, () -> operatorPods().isEmpty());
        client.close();
    }

    @Test
    void theReadmesExampleIsReconciledByTheOperatorPodAndItsValidatorAnswersThroughItsService() throws IOException {
        assertThat(operatorPods()).as("the chart's default: two replicas electing a leader").hasSize(2)
                .allMatch(GeneratedProjectClusterTest::ready);
        GenericKubernetesResource greeting = Serialization.unmarshal(
                Files.readString(project.resolve("examples/greeting.yaml")), GenericKubernetesResource.class);
        greeting.getMetadata().setNamespace(NAMESPACE); // the chart's default: the release namespace only

        client.genericKubernetesResources(GREETINGS).resource(greeting).create();

        LocalCluster.await("the Greeting Ready at its generation, its ConfigMap applied", START, () -> {
            GenericKubernetesResource now = client.genericKubernetesResources(GREETINGS).inNamespace(NAMESPACE)
                    .withName(greeting.getMetadata().getName()).get();
            Map<String, Object> status = now.get("status");
            if (status == null || !now.getMetadata().getGeneration().equals(
                    ((Number) status.getOrDefault("observedGeneration", -1)).longValue())) {
                return false;
            }
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> conditions = (List<Map<String, Object>>) status.get("conditions");
            return conditions != null && conditions.stream().anyMatch(c -> "Ready".equals(c.get("type"))
                    && "True".equals(c.get("status")))
                    && client.configMaps().inNamespace(NAMESPACE).list().getItems().stream()
                            .anyMatch(c -> c.getMetadata().getOwnerReferences().stream()
                                    .anyMatch(o -> o.getUid().equals(now.getMetadata().getUid())));
        });

        GenericKubernetesResource blank = Serialization.unmarshal(
                Files.readString(project.resolve("examples/greeting.yaml")), GenericKubernetesResource.class);
        blank.getMetadata().setNamespace(NAMESPACE);
        blank.getMetadata().setName("blank");
        blank.setAdditionalProperty("spec", Map.of("message", "   "));
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.genericKubernetesResources(GREETINGS).resource(blank).create());
        assertThat(refused).as("a blank message refused by the generated validator").isNotNull();
        assertThat(refused.getMessage()).contains("spec.message must not be only white space");
    }

    /**
     * The generated project. With {@code -Dcluster.generated.required=true} (.ci/run, where
     * archetype-check runs first) it must be there; elsewhere the test is skipped without it.
     */
    private static Path generatedProject() {
        Path project = Path.of(System.getProperty("cluster.generated.project", "target/missing-project"))
                .toAbsolutePath().normalize();
        boolean built = Files.isDirectory(project.resolve("target"));
        if (!Boolean.getBoolean("cluster.generated.required")) {
            assumeTrue(built, "Skipped: no generated project at " + project + " (run scripts/archetype-check.sh)");
        }
        assertThat(built).as("the project scripts/archetype-check.sh generates and builds, at " + project).isTrue();
        return project;
    }

    private static Path jar(Path project) throws IOException {
        try (Stream<Path> files = Files.list(project.resolve("target"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar")
                    && !f.getFileName().toString().endsWith("-plain.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no jar in " + project.resolve("target")));
        }
    }

    private static List<Pod> operatorPods() {
        return client.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/instance", RELEASE).list()
                .getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }
}
