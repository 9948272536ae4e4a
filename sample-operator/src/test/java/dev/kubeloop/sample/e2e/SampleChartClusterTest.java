package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.marcnuri.helm.Helm;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteTls;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The sample chart installed with helm-java on the one-node cluster of
 * {@code scripts/local-cluster.sh}, the operator running as a Pod from its image, as
 * docs/operations.md tells a user to: what only a cluster shows. The scenarios run in order on one
 * release; the last one uninstalls it. Every Pod's logs and the events are kept in
 * {@code target/cluster-logs} after the run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleChartClusterTest {

    static final String RELEASE = "sample";
    static final String RELEASE_NAMESPACE = "kubeloop-system";
    static final String OPERATOR_IMAGE = "localhost/kubeloop-sample-operator";
    static final String TAG = "cluster-test";
    static final String NGINX = "localhost/nginx:kubeloop";
    static final Path CHART = Path.of("../helm/sample-operator");
    static final Duration POD_START = Duration.ofSeconds(180);
    static final String DENIED = "admission webhook \"validate.websites.sample.kubeloop.dev\" denied the "
            + "request: spec.tls.secretName is required when spec.tls is set";

    static LocalCluster cluster;
    static KubernetesClient client;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @BeforeAll
    static void installTheChart() {
        cluster = LocalCluster.assumeRunning();
        client = new KubernetesClientBuilder().build();
        cluster.loadJar(LocalCluster.operatorJar(), OPERATOR_IMAGE + ":" + TAG);
        // a release left by an earlier run on the same cluster state (stop keeps etcd)
        Helm.uninstall(RELEASE).withNamespace(RELEASE_NAMESPACE).withKubeConfig(cluster.kubeconfig()).ignoreNotFound()
                .call();
        LocalCluster.await("no operator Pod of an earlier run", POD_START, () -> operatorPods().isEmpty());
        new Helm(CHART).install().withName(RELEASE).withNamespace(RELEASE_NAMESPACE).createNamespace()
                .withKubeConfig(cluster.kubeconfig())
                .set("image.repository", OPERATOR_IMAGE).set("image.tag", TAG).set("image.pullPolicy", "Never")
                .set("replicaCount", "1").set("webhooks.enabled", "true")
                // the scenarios make namespaces of their own: the cluster-wide install (an explicit value since issue 26)
                .set("watchAllNamespaces", "true")
                .waitReady().withTimeout(300).call();
    }

    @AfterAll
    static void keepTheLogs() {
        if (client != null) {
            LocalCluster.keepLogs(client, Path.of("target/cluster-logs"));
            client.close();
        }
    }

    @Test
    @Order(1)
    void theOperatorPodIsReadyThroughItsProbesAsItsServiceAccountWithTheChartsRbacOnly() {
        Pod pod = operatorPods().get(0);

        assertThat(pod.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        var container = pod.getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo(OPERATOR_IMAGE + ":" + TAG);
        assertThat(container.getReadinessProbe()).isNotNull();
        assertThat(container.getLivenessProbe()).isNotNull();
        String account = pod.getSpec().getServiceAccountName();
        assertThat(account).isEqualTo(RELEASE + "-sample-operator");
        List<HasMetadata> bindings = new ArrayList<>();
        client.rbac().clusterRoleBindings().list().getItems().stream()
                .filter(b -> bindsTo(b.getSubjects(), account)).forEach(bindings::add);
        client.rbac().roleBindings().inAnyNamespace().list().getItems().stream()
                .filter(b -> bindsTo(b.getSubjects(), account)).forEach(bindings::add);
        assertThat(bindings).as("what grants the operator's ServiceAccount anything").isNotEmpty()
                .allSatisfy(b -> assertThat(b.getMetadata().getLabels())
                        .containsEntry("app.kubernetes.io/managed-by", "Helm")
                        .containsEntry("app.kubernetes.io/instance", RELEASE));
    }

    @Test
    @Order(2)
    void aWebsiteIsServedByNginxPodsThroughItsServicesClusterIpAndAnEditedPageAfterTheRollout() throws Exception {
        String namespace = namespace("sites");
        Website site = client.resource(website(namespace, "hello", 2, "<h1>hello from a cluster</h1>")).create();

        Website ready = awaitReady(site, 2);
        assertThat(client.pods().inNamespace(namespace).list().getItems())
                .filteredOn(p -> "Running".equals(p.getStatus().getPhase())).hasSize(2)
                .allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getImage()).isEqualTo(NGINX));
        assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(2);
        String clusterIp = client.services().inNamespace(namespace).withName("hello").get().getSpec().getClusterIP();
        // kube-proxy writes the Service's rules after the endpoints are ready, on its own time: wait for them
        LocalCluster.await("the page served through the Service", POD_START,
                () -> "<h1>hello from a cluster</h1>".equals(fetchOrNull(clusterIp)));

        client.resources(Website.class).inNamespace(namespace).withName("hello")
                .edit(w -> {
                    w.getSpec().setPage("<h1>edited</h1>");
                    return w;
                });

        LocalCluster.await("the edited page served through the Service", POD_START,
                () -> "<h1>edited</h1>".equals(fetchOrNull(clusterIp)));
        awaitReady(client.resources(Website.class).inNamespace(namespace).withName("hello").get(), 2);
        for (int i = 0; i < 10; i++) {
            assertThat(fetch(clusterIp)).as("every replica serves the edited page").isEqualTo("<h1>edited</h1>");
        }
    }

    @Test
    @Order(3)
    void anInvalidWebsiteIsRefusedByTheValidatorCalledThroughItsService() {
        String namespace = namespace("webhooks");
        Website invalid = website(namespace, "insecure", 1, "<p>secure</p>");
        invalid.getSpec().setTls(new WebsiteTls());

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(invalid).create());

        assertThat(refused).isNotNull();
        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused.getMessage()).contains(DENIED);
        assertThat(client.resources(Website.class).inNamespace(namespace).withName("insecure").get()).isNull();
    }

    @Test
    @Order(4)
    void aV1alpha1WebsiteIsWrittenAndReadBackThroughTheConversionWebhook() {
        String namespace = namespace("conversion");
        var legacy = new dev.kubeloop.sample.website.v1alpha1.Website();
        legacy.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName("legacy").build());
        legacy.setSpec(new dev.kubeloop.sample.website.v1alpha1.WebsiteSpec());
        legacy.getSpec().setHtml("<p>written as v1alpha1</p>");
        legacy.getSpec().setImage(NGINX);

        client.resource(legacy).create();

        Website asV1 = client.resources(Website.class).inNamespace(namespace).withName("legacy").get();
        assertThat(asV1.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1");
        assertThat(asV1.getSpec().getPage()).isEqualTo("<p>written as v1alpha1</p>");
        var asV1alpha1 = client.resources(dev.kubeloop.sample.website.v1alpha1.Website.class).inNamespace(namespace)
                .withName("legacy").get();
        assertThat(asV1alpha1.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1alpha1");
        assertThat(asV1alpha1.getSpec().getHtml()).isEqualTo("<p>written as v1alpha1</p>");
        awaitReady(asV1, 1);
    }

    @Test
    @Order(5)
    void aDeletedWebsitesObjectsAndPodsAreRemovedByTheGarbageCollector() {
        String namespace = namespace("gc");
        Website site = awaitReady(client.resource(website(namespace, "doomed", 1, "<p>doomed</p>")).create(), 1);
        String uid = site.getMetadata().getUid();
        assertThat(owned(namespace, uid)).as("what the Website owns").isNotEmpty();

        client.resource(site).withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
                .delete();

        LocalCluster.await("the Website's ConfigMaps, Deployment, Service and Pods gone", POD_START, () ->
                client.configMaps().inNamespace(namespace).list().getItems().stream()
                        .noneMatch(c -> c.getMetadata().getName().startsWith("doomed"))
                        && client.apps().deployments().inNamespace(namespace).withName("doomed").get() == null
                        && client.services().inNamespace(namespace).withName("doomed").get() == null
                        && client.apps().replicaSets().inNamespace(namespace).list().getItems().isEmpty()
                        && client.pods().inNamespace(namespace).list().getItems().isEmpty());
    }

    @Test
    @Order(6)
    void aNamespaceWithWebsitesIsDeletedCompletely() {
        String namespace = namespace("doomed-ns");
        awaitReady(client.resource(website(namespace, "one", 1, "<p>one</p>")).create(), 1);
        awaitReady(client.resource(website(namespace, "two", 1, "<p>two</p>")).create(), 1);

        client.namespaces().withName(namespace).delete();

        LocalCluster.await("namespace " + namespace + " gone", POD_START,
                () -> client.namespaces().withName(namespace).get() == null);
    }

    @Test
    @Order(7)
    void withTwoReplicasTheStandbyLeadsWithinTheLeaseWhenTheLeadersContainerIsKilled() {
        upgrade(Map.of("replicaCount", "2"));
        LocalCluster.await("two operator Pods Ready", POD_START,
                () -> operatorPods().stream().filter(SampleChartClusterTest::ready).count() == 2);
        LocalCluster.await("a leader", POD_START, () -> leader() != null
                && operatorPods().stream().anyMatch(p -> p.getMetadata().getName().equals(leader())));
        String leader = leader();
        Pod leaderPod = operatorPods().stream().filter(p -> p.getMetadata().getName().equals(leader)).findFirst()
                .orElseThrow();
        String standby = operatorPods().stream().map(p -> p.getMetadata().getName()).filter(n -> !n.equals(leader))
                .findFirst().orElseThrow();

        String killedIdentity = holder();
        long killed = System.nanoTime();
        cluster.killContainer(leaderPod.getStatus().getContainerStatuses().get(0).getContainerID());

        // the standby, or the killed container restarted by the kubelet (a new process, a new identity), may win
        // the Lease once it expires: what matters is that the dead process's hold ends within the lease
        LocalCluster.await("a live replica leads instead of " + killedIdentity, Duration.ofSeconds(LEASE_SECONDS + 15),
                () -> holder() != null && !holder().equals(killedIdentity));
        long takeover = Duration.ofNanos(System.nanoTime() - killed).toMillis();
        System.out.printf("leader %s killed; %s leads after %d ms (lease %d s; %s)%n", killedIdentity, holder(),
                takeover, LEASE_SECONDS, standby.equals(leader()) ? "the standby" : "the restarted container");
        assertThat(takeover).as("within the lease and a retry period").isLessThan((LEASE_SECONDS + 2 + 3) * 1000L);
        String namespace = namespace("after-failover");
        awaitReady(client.resource(website(namespace, "later", 1, "<p>later</p>")).create(), 1);
        LocalCluster.await("the killed container restarted and Ready again", POD_START, () -> operatorPods().stream()
                .anyMatch(p -> p.getMetadata().getName().equals(leader) && ready(p)
                        && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 1));
    }

    @Test
    @Order(8)
    void helmUpgradeToANewImageRollsOnePodAtATimeAndTheOperatorKeepsReconciling() {
        cluster.loadJar(LocalCluster.operatorJar(), OPERATOR_IMAGE + ":" + TAG + "-2");
        String namespace = namespace("upgrade");
        awaitReady(client.resource(website(namespace, "steady", 1, "<p>before</p>")).create(), 1);
        List<Integer> readyDuringRollout = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                readyDuringRollout.add((int) operatorPods().stream().filter(SampleChartClusterTest::ready).count());
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rollout-watcher");
        watcher.setDaemon(true);
        watcher.start();

        upgrade(Map.of("image.tag", TAG + "-2"));

        watcher.interrupt();
        LocalCluster.await("both operator Pods on the new image and Ready", POD_START, () -> {
            List<Pod> pods = operatorPods();
            return pods.size() == 2 && pods.stream().allMatch(p -> ready(p)
                    && p.getSpec().getContainers().get(0).getImage().equals(OPERATOR_IMAGE + ":" + TAG + "-2"));
        });
        assertThat(readyDuringRollout).as("Ready operator Pods sampled during the rollout (maxUnavailable 0)")
                .isNotEmpty().allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(1));
        client.resources(Website.class).inNamespace(namespace).withName("steady").edit(w -> {
            w.getSpec().setPage("<p>after</p>");
            return w;
        });
        LocalCluster.await("the page edited after the upgrade served", POD_START, () -> "<p>after</p>".equals(
                fetchOrNull(client.services().inNamespace(namespace).withName("steady").get().getSpec().getClusterIP())));
    }

    @Test
    @Order(100)
    void helmUninstallLeavesNothingOfTheReleaseButTheCrdAndTheOperatorsLease() {
        Helm.uninstall(RELEASE).withNamespace(RELEASE_NAMESPACE).withKubeConfig(cluster.kubeconfig()).call();

        LocalCluster.await("the operator's Pods gone, terminating ones included", POD_START, () -> client.pods()
                .inNamespace(RELEASE_NAMESPACE).withLabel("app.kubernetes.io/instance", RELEASE).list().getItems()
                .isEmpty());
        List<String> left = new ArrayList<>();
        for (ResourceDefinitionContext kind : listableKinds()) {
            for (GenericKubernetesResource object : client.genericKubernetesResources(kind).inAnyNamespace().list()
                    .getItems()) {
                if (ofTheRelease(object)) {
                    left.add(object.getKind() + " " + Objects.toString(object.getMetadata().getNamespace(), "")
                            + "/" + object.getMetadata().getName());
                }
            }
        }
        // the CRD by Helm's policy (keep); the leader-election Lease is the operator's own, made at run time
        assertThat(left).containsExactlyInAnyOrder("CustomResourceDefinition /websites.sample.kubeloop.dev",
                "Lease " + RELEASE_NAMESPACE + "/" + RELEASE + "-sample-operator-leader");
    }

    // --- helpers ---------------------------------------------------------------------------------

    static final int LEASE_SECONDS = 15;

    private static void upgrade(Map<String, String> values) {
        var upgrade = new Helm(CHART).upgrade().withName(RELEASE).withNamespace(RELEASE_NAMESPACE)
                .withKubeConfig(cluster.kubeconfig()).reuseValues();
        values.forEach(upgrade::set);
        upgrade.waitReady().withTimeout(300).call();
    }

    /** The pod name of the Lease's holder (identities are {@code <pod>_<random>}), or null. */
    private static String leader() {
        String holder = holder();
        return holder == null || holder.indexOf('_') < 0 ? holder : holder.substring(0, holder.lastIndexOf('_'));
    }

    /** The Lease's holder identity, one per process, or null. */
    private static String holder() {
        var lease = client.leases().inNamespace(RELEASE_NAMESPACE).withName(RELEASE + "-sample-operator-leader").get();
        String holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
        return holder == null || holder.isEmpty() ? null : holder;
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    private static List<Pod> operatorPods() {
        return client.pods().inNamespace(RELEASE_NAMESPACE)
                .withLabel("app.kubernetes.io/instance", RELEASE).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private static boolean bindsTo(List<Subject> subjects, String account) {
        return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
                && account.equals(s.getName()) && RELEASE_NAMESPACE.equals(s.getNamespace()));
    }

    /** Objects Helm made for the release (its labels), or anything left in its namespace but the namespace's own. */
    private static boolean ofTheRelease(GenericKubernetesResource object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        if (labels != null && RELEASE.equals(labels.get("app.kubernetes.io/instance"))) {
            return true;
        }
        if (!RELEASE_NAMESPACE.equals(object.getMetadata().getNamespace())) {
            return false;
        }
        String name = object.getMetadata().getName();
        return switch (object.getKind()) {
            case "Event" -> false;   // the record of what happened, expiring on its own
            case "ConfigMap" -> !name.equals("kube-root-ca.crt");
            case "ServiceAccount" -> !name.equals("default");
            case "Secret" -> !name.startsWith("default-token-");
            default -> true;
        };
    }

    private static List<ResourceDefinitionContext> listableKinds() {
        List<ResourceDefinitionContext> kinds = new ArrayList<>();
        List<String> groupVersions = new ArrayList<>(List.of("v1"));
        client.getApiGroups().getGroups().forEach(g -> groupVersions.add(g.getPreferredVersion().getGroupVersion()));
        for (String groupVersion : groupVersions) {
            APIResourceList resources = client.getApiResources(groupVersion);
            for (APIResource resource : resources.getResources()) {
                if (resource.getName().contains("/") || !resource.getVerbs().contains("list")) {
                    continue;
                }
                String group = groupVersion.contains("/") ? groupVersion.substring(0, groupVersion.indexOf('/')) : "";
                String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
                kinds.add(new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version)
                        .withPlural(resource.getName()).withKind(resource.getKind())
                        .withNamespaced(Boolean.TRUE.equals(resource.getNamespaced())).build());
            }
        }
        return kinds;
    }

    private static String namespace(String prefix) {
        String name = prefix + "-" + Long.toString(System.nanoTime() % 1_000_000, 36);
        client.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        return name;
    }

    private static Website website(String namespace, String name, int replicas, String page) {
        Website site = Sites.website(namespace, name, page);
        site.getSpec().setReplicas(replicas);
        site.getSpec().setImage(NGINX);
        return site;
    }

    /** Waits for status.readyReplicas = replicas and Ready=True on the Website's current generation. */
    private static Website awaitReady(Website site, int replicas) {
        var resource = client.resources(Website.class).inNamespace(site.getMetadata().getNamespace())
                .withName(site.getMetadata().getName());
        LocalCluster.await(site.getMetadata().getName() + ": readyReplicas " + replicas + " and Ready=True", POD_START,
                () -> {
                    Website now = resource.get();
                    return now.getStatus() != null && Integer.valueOf(replicas).equals(now.getStatus().getReadyReplicas())
                            && Objects.equals(now.getStatus().getObservedGeneration(), now.getMetadata().getGeneration())
                            && now.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready")
                                    && c.getStatus().equals("True"));
                });
        return resource.get();
    }

    private static List<HasMetadata> owned(String namespace, String uid) {
        List<HasMetadata> owned = new ArrayList<>();
        client.configMaps().inNamespace(namespace).list().getItems().stream().filter(o -> ownedBy(o, uid))
                .forEach(owned::add);
        client.apps().deployments().inNamespace(namespace).list().getItems().stream().filter(o -> ownedBy(o, uid))
                .forEach(owned::add);
        client.services().inNamespace(namespace).list().getItems().stream().filter(o -> ownedBy(o, uid))
                .forEach(owned::add);
        return owned;
    }

    private static boolean ownedBy(HasMetadata object, String uid) {
        return object.getMetadata().getOwnerReferences().stream().anyMatch(r -> r.getUid().equals(uid));
    }

    private static String fetch(String clusterIp) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + clusterIp + "/"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static String fetchOrNull(String clusterIp) {
        try {
            return fetch(clusterIp);
        } catch (Exception | AssertionError e) {
            return null;
        }
    }
}
