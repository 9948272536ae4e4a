package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CronJob port (acceptance/cronjob-operator, kubebuilder's tutorial) as a user deploys it: the
 * project {@code scripts/archetype-check.sh} generated from the archetype with the port's sources,
 * its jar as an image, its own chart (RBAC and webhook configurations derived from the code)
 * installed with its defaults but the image. Here, unlike on the e2e tier's bare API server, a real
 * Job controller runs the Jobs the operator creates, kubelet runs their Pods, and the garbage
 * collector removes what a deleted Job or CronJob owned.
 */
class CronJobClusterTest {

    static final String RELEASE = "cronjob";
    static final String NAMESPACE = "cronjob-system";
    static final String IMAGE = "localhost/cronjob-operator";
    static final Duration START = Duration.ofSeconds(300);
    /** Three runs 15 s apart, each a Pod started on a two-core node, with room for a busy machine. */
    static final Duration RUNS = Duration.ofSeconds(240);
    static final ResourceDefinitionContext CRONJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("batch.tutorial.kubebuilder.io").withVersion("v1").withPlural("cronjobs").withKind("CronJob")
            .withNamespaced(true).build();

    static LocalCluster cluster;
    static KubernetesClient client;

    @BeforeAll
    static void installThePortsChart() throws IOException {
        cluster = LocalCluster.assumeRunning();
        Path project = LocalCluster.generatedProject("cluster.cronjob.project");
        client = new KubernetesClientBuilder().build();
        cluster.installGeneratedChart(project, RELEASE, NAMESPACE, IMAGE);
    }

    @AfterAll
    static void uninstall() {
        if (client == null) {
            return;
        }
        client.genericKubernetesResources(CRONJOBS).inNamespace(NAMESPACE).delete();
        cluster.uninstall(client, RELEASE, NAMESPACE, Path.of("target/cluster-logs/cronjob"));
        client.close();
    }

    /**
     * Every 15 s a run: the operator creates its Job, the Job controller runs it to completion,
     * the operator counts it and keeps the last successful run only (successfulJobsHistoryLimit 1);
     * a trimmed Job's Pod goes with it (the operator's delete propagates). Deleting the CronJob
     * then takes every Job and Pod it still owns: the owner references the operator wrote are ones
     * the garbage collector follows.
     */
    @Test
    void runsEveryFifteenSecondsCompleteAreTrimmedToTheHistoryLimitAndGoWithTheirCronJob() {
        GenericKubernetesResource created = client.genericKubernetesResources(CRONJOBS)
                .resource(cronJob("hello", "@every 15s", 1)).create();
        String uid = created.getMetadata().getUid();
        Map<String, String> jobUids = new ConcurrentHashMap<>(); // every run seen, by name
        Set<String> succeeded = ConcurrentHashMap.newKeySet();
        Map<String, Set<String>> podsOfRun = new ConcurrentHashMap<>();

        LocalCluster.await("two runs completed by the Job controller, trimmed to the last", RUNS, () -> {
            List<Job> jobs = ownedJobs(uid);
            for (Job job : jobs) {
                jobUids.put(job.getMetadata().getName(), job.getMetadata().getUid());
                if (job.getStatus() != null && Integer.valueOf(1).equals(job.getStatus().getSucceeded())) {
                    succeeded.add(job.getMetadata().getName());
                }
            }
            for (Pod pod : client.pods().inNamespace(NAMESPACE).list().getItems()) {
                jobUids.forEach((run, jobUid) -> {
                    if (ownedBy(pod, jobUid)) {
                        podsOfRun.computeIfAbsent(run, r -> ConcurrentHashMap.newKeySet())
                                .add(pod.getMetadata().getName());
                    }
                });
            }
            Set<String> present = jobs.stream().map(j -> j.getMetadata().getName()).collect(Collectors.toSet());
            long succeededKept = succeeded.stream().filter(present::contains).count();
            boolean trimmed = succeeded.stream().anyMatch(run -> !present.contains(run));
            return succeeded.size() >= 2 && trimmed && succeededKept <= 1;
        });

        Set<String> trimmedRuns = succeeded.stream()
                .filter(run -> ownedJobs(uid).stream().noneMatch(j -> j.getMetadata().getName().equals(run)))
                .collect(Collectors.toSet());
        assertThat(trimmedRuns).allSatisfy(run -> assertThat(podsOfRun.get(run))
                .as("the Pod the Job controller ran for " + run).isNotEmpty());
        LocalCluster.await("the trimmed runs' Pods deleted with their Jobs", START, () -> trimmedRuns.stream()
                .flatMap(run -> podsOfRun.get(run).stream())
                .noneMatch(pod -> client.pods().inNamespace(NAMESPACE).withName(pod).get() != null));

        GenericKubernetesResource cronJob = client.genericKubernetesResources(CRONJOBS).inNamespace(NAMESPACE)
                .withName("hello").get();
        Map<String, Object> status = cronJob.get("status");
        assertThat(status).as("the CronJob's status").isNotNull().containsKey("lastScheduleTime");
        assertThat(condition(status, "Available")).as("Available").containsEntry("status", "True");
        // the operator posts its events in the background, after the write they tell of
        LocalCluster.await("the operator's events on the CronJob: a run created, a run deleted", START, () -> {
            List<String> messages = events(cronJob);
            return messages.stream().anyMatch(message -> message.startsWith("Created Job hello-"))
                    && messages.stream().anyMatch(message -> message.startsWith("Job hello-")
                            && message.endsWith(" was deleted"));
        });

        client.genericKubernetesResources(CRONJOBS).inNamespace(NAMESPACE).withName("hello").delete();
        LocalCluster.await("the CronJob's Jobs and their Pods collected with it", START,
                () -> ownedJobs(uid).isEmpty() && client.pods().inNamespace(NAMESPACE).list().getItems().stream()
                        .noneMatch(pod -> jobUids.values().stream().anyMatch(jobUid -> ownedBy(pod, jobUid))));
    }

    /** Both webhooks through the chart's Service: the defaulter fills what was left out, the validator refuses a bad schedule. */
    @Test
    void itsDefaulterAndValidatorAnswerThroughTheChartsService() {
        GenericKubernetesResource bare = cronJob("defaults", "0 3 * * *", null);
        GenericKubernetesResource stored = client.genericKubernetesResources(CRONJOBS).resource(bare).create();
        Map<String, Object> spec = stored.get("spec");
        assertThat(spec).containsEntry("concurrencyPolicy", "Allow").containsEntry("suspend", false)
                .containsEntry("successfulJobsHistoryLimit", 3).containsEntry("failedJobsHistoryLimit", 1);

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.genericKubernetesResources(CRONJOBS).resource(cronJob("bad", "every day", 1)).create());
        assertThat(refused).as("a schedule that does not parse, refused").isNotNull();
        assertThat(refused.getMessage()).contains("spec.schedule");
        client.genericKubernetesResources(CRONJOBS).inNamespace(NAMESPACE).withName("defaults").delete();
    }

    /**
     * A CronJob whose runs print the date: the node's nginx image (a Debian root with a shell),
     * never pulled. {@code successfulJobsHistoryLimit} null: left out, for the defaulter.
     */
    private static GenericKubernetesResource cronJob(String name, String schedule, Integer successfulJobsHistoryLimit) {
        Map<String, Object> container = Map.of("name", "hello", "image", "localhost/nginx:kubeloop",
                "imagePullPolicy", "Never", "command", List.of("/bin/sh", "-c", "date; echo Hello from the cluster"));
        Map<String, Object> jobTemplate = Map.of("spec", Map.of("backoffLimit", 2, "template", Map.of("spec",
                Map.of("containers", List.of(container), "restartPolicy", "OnFailure"))));
        Map<String, Object> spec = new java.util.LinkedHashMap<>();
        spec.put("schedule", schedule);
        spec.put("jobTemplate", jobTemplate);
        if (successfulJobsHistoryLimit != null) {
            spec.put("successfulJobsHistoryLimit", successfulJobsHistoryLimit);
        }
        GenericKubernetesResource cronJob = new GenericKubernetesResource();
        cronJob.setApiVersion("batch.tutorial.kubebuilder.io/v1");
        cronJob.setKind("CronJob");
        cronJob.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        cronJob.setAdditionalProperty("spec", spec);
        return cronJob;
    }

    private static List<Job> ownedJobs(String cronJobUid) {
        return client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(job -> ownedBy(job, cronJobUid)).toList();
    }

    private static boolean ownedBy(HasMetadata object, String ownerUid) {
        ObjectMeta metadata = object.getMetadata();
        return metadata.getOwnerReferences() != null && metadata.getOwnerReferences().stream()
                .anyMatch(owner -> ownerUid.equals(owner.getUid()) && Boolean.TRUE.equals(owner.getController()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(Map<String, Object> status, String type) {
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) status.getOrDefault("conditions", List.of());
        return conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst().orElse(Map.of());
    }

    private static List<String> events(HasMetadata about) {
        return client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
                .filter(e -> about.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
                .map(io.fabric8.kubernetes.api.model.Event::getMessage).toList();
    }
}
