package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
        project = LocalCluster.generatedProject("cluster.generated.project");
        client = new KubernetesClientBuilder().build();
        cluster.installGeneratedChart(project, RELEASE, NAMESPACE, IMAGE); // the README's helm install
    }

    @AfterAll
    static void uninstall() {
        if (client == null) {
            return;
        }
        cluster.uninstall(client, RELEASE, NAMESPACE, Path.of("target/cluster-logs/generated"));
        client.close();
    }

    @Test
    void theReadmesExampleIsReconciledByTheOperatorPodAndItsValidatorAnswersThroughItsService() throws IOException {
        assertThat(operatorPods()).as("the chart's default: two replicas electing a leader").hasSize(2)
                .allMatch(LocalCluster::ready);
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

    private static List<Pod> operatorPods() {
        return LocalCluster.releasePods(client, NAMESPACE, RELEASE);
    }
}
