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
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
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
import java.util.concurrent.atomic.AtomicReference;
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
                // one line per reconcile in the operator's log, which a failing wait keeps (awaitReady)
                .set("jvm.extraOptions", "-Dlogging.level.dev.kubeloop.runtime.controller.Controller=DEBUG")
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
        awaitServing("the page served through the Service", clusterIp, "<h1>hello from a cluster</h1>");

        // a merge patch, as kubectl would send: not locked on a version the operator's status write may move on
        client.resources(Website.class).inNamespace(namespace).withName("hello")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"page\":\"<h1>edited</h1>\"}}");

        awaitServing("the edited page served through the Service", clusterIp, "<h1>edited</h1>");
        awaitReady(client.resources(Website.class).inNamespace(namespace).withName("hello").get(), 2);
        // Ready holds with two ready pods of either page; the rollout is over when no pod of the first is left
        LocalCluster.await("hello: Progressing=False (Complete), the rollout over", POD_START, () ->
                client.resources(Website.class).inNamespace(namespace).withName("hello").get().getStatus()
                        .condition("Progressing").filter(c -> "False".equals(c.getStatus())
                                && "Complete".equals(c.getReason())).isPresent());
        for (int i = 0; i < 10; i++) {
            assertThat(fetch(clusterIp)).as("every replica serves the edited page").isEqualTo("<h1>edited</h1>");
        }
        // kept while pods of the first page ran (WebsiteReconcilerTest), and pruned once the rollout replaced them
        LocalCluster.await("the first page's ConfigMap pruned after the rollout", POD_START, () ->
                client.configMaps().inNamespace(namespace).list().getItems().stream()
                        .filter(page -> page.getMetadata().getName().startsWith("hello-content-")).count() == 1);
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
    void helmUpgradeToANewImageWhileWebsitesChangeLosesNoChangeAndNeverHasTwoReplicasWritingOneObject() {
        cluster.loadJar(LocalCluster.operatorJar(), OPERATOR_IMAGE + ":" + TAG + "-2");
        String namespace = namespace("upgrade");
        List<String> sites = List.of("steady-0", "steady-1", "steady-2");
        for (String name : sites) {
            awaitReady(client.resource(website(namespace, name, 1, "<p>0</p>")).create(), 1);
        }
        List<Integer> readyDuringRollout = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger edits = new java.util.concurrent.atomic.AtomicInteger();
        // a change a second, round robin over the sites, from before the upgrade to after it
        Thread load = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                readyDuringRollout.add((int) operatorPods().stream().filter(SampleChartClusterTest::ready).count());
                int edit = edits.incrementAndGet();
                try {
                    client.resources(Website.class).inNamespace(namespace).withName(sites.get(edit % sites.size()))
                            .edit(w -> {
                                w.getSpec().setPage("<p>" + edit + "</p>");
                                return w;
                            });
                } catch (KubernetesClientException e) {
                    edits.decrementAndGet(); // not written (a conflict, a hiccup): the next edit is written instead
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "website-changes");
        load.setDaemon(true);
        load.start();

        try {
            upgrade(Map.of("image.tag", TAG + "-2"));
            LocalCluster.await("both operator Pods on the new image and Ready", POD_START, () -> {
                List<Pod> pods = operatorPods();
                return pods.size() == 2 && pods.stream().allMatch(p -> ready(p)
                        && p.getSpec().getContainers().get(0).getImage().equals(OPERATOR_IMAGE + ":" + TAG + "-2"));
            });
            int after = edits.get();
            LocalCluster.await("three more changes after the rollout", POD_START, () -> edits.get() >= after + 3);
        } finally {
            load.interrupt();
            try {
                load.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        assertThat(readyDuringRollout).as("Ready operator Pods sampled during the rollout (maxUnavailable 0)")
                .isNotEmpty().allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(1));
        // no change lost: every site ends reconciled at its last generation and serves its last page
        for (String name : sites) {
            Website last = client.resources(Website.class).inNamespace(namespace).withName(name).get();
            awaitReady(last, 1);
            String clusterIp = client.services().inNamespace(namespace).withName(name).get().getSpec().getClusterIP();
            awaitServing(name + " serving its last page " + last.getSpec().getPage(), clusterIp,
                    last.getSpec().getPage());
        }
        AuditedWrites writes = AuditedWrites.read(cluster.auditLog(), "system:serviceaccount:" + RELEASE_NAMESPACE
                + ":" + RELEASE + "-sample-operator", namespace);
        System.out.printf("upgrade: %d changes, %d operator writes in the namespace by %s; returns: %s%n", edits.get(),
                writes.writes().size(), writes.writers(), writes.returns());
        assertThat(writes.writers()).as("the replicas that wrote: the old leader, then a new one").hasSizeGreaterThan(1);
        assertThat(writes.returns()).as("writes by a replica after another had taken the object over").isEmpty();
    }

    @Test
    @Order(9)
    void drainingTheNodeThroughTheEvictionApiLeavesOneReplicaByItsDisruptionBudget() {
        List<Pod> pods = operatorPods();
        assertThat(pods).hasSize(2).allMatch(SampleChartClusterTest::ready);
        String node = pods.get(0).getSpec().getNodeName();
        // kubectl drain: cordon, then evict every Pod through the eviction API, retrying what it refuses
        cordon(node, true);
        try {
            assertThat(evict(pods.get(0))).as("the first eviction (2 healthy, minAvailable 1)").isEqualTo(201);
            assertThat(evict(pods.get(1))).as("the second eviction, refused by the PodDisruptionBudget")
                    .isEqualTo(429);
            // the evicted replica's replacement cannot be scheduled on the cordoned node: one replica serves
            LocalCluster.await("one operator Pod Ready and leading, the other's replacement Pending", POD_START, () -> {
                List<Pod> now = operatorPods();
                return now.stream().filter(SampleChartClusterTest::ready).count() == 1
                        && now.stream().anyMatch(p -> "Pending".equals(p.getStatus().getPhase()))
                        && now.stream().anyMatch(p -> ready(p) && p.getMetadata().getName().equals(leader()));
            });
            assertThat(evict(pods.get(1))).as("still refused while the replacement is Pending").isEqualTo(429);
            String namespace = namespace("drained");
            Website site = client.resource(website(namespace, "during-drain", 1, "<p>drained</p>")).create();
            // no new Pod can run on the cordoned node; the remaining replica reconciles all the same
            LocalCluster.await("the Website reconciled by the remaining replica", POD_START, () -> {
                Website now = client.resource(site).get();
                return now.getStatus() != null && Objects.equals(now.getStatus().getObservedGeneration(),
                        now.getMetadata().getGeneration())
                        && client.apps().deployments().inNamespace(namespace).withName("during-drain").get() != null;
            });
        } finally {
            cordon(node, false);
        }
        LocalCluster.await("two operator Pods Ready after the uncordon", POD_START,
                () -> operatorPods().stream().filter(SampleChartClusterTest::ready).count() == 2);
    }

    @Test
    @Order(10)
    void shardedReplicasSplitTheWebsitesAndScalingToFourAndBackSettleTheRingAndReconcileEveryWebsite() {
        String namespace = namespace("sharded");
        List<String> sites = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            sites.add(client.resource(website(namespace, "shard-" + i, 1, "<p>0</p>")).create().getMetadata().getName());
        }
        RingSampler sampler = new RingSampler();
        sampler.start();
        try {
            // the leader-elected replicas and sharded ones do not coordinate: switch through zero (docs/sharding.md)
            switchTo(Map.of("sharding.enabled", "true", "replicaCount", "3"));
            awaitRing(3);
            awaitPages(namespace, sites, "<p>1</p>");

            client.apps().deployments().inNamespace(RELEASE_NAMESPACE).withName(DEPLOYMENT).scale(4);
            awaitRing(4);
            awaitPages(namespace, sites, "<p>2</p>");

            client.apps().deployments().inNamespace(RELEASE_NAMESPACE).withName(DEPLOYMENT).scale(3);
            awaitRing(3);
            awaitPages(namespace, sites, "<p>3</p>");
        } finally {
            sampler.stop();
        }
        // Two members may both list a bucket while they claim it (the CLAIMING phase, docs/sharding.md): each
        // writes its claim, then reads every Lease back, and the one that sees the other's withdraws before it
        // starts the bucket's informers. So a double listing is not two reconcilers; what must hold is that it
        // always resolves: the ring settles after every step (awaitRing), and every Website is reconciled by
        // whoever holds it (awaitPages). That no reconciles overlap is proven by ShardingE2ETest, whose replicas
        // journal every reconcile.
        System.out.printf("sharding: %d samples of the ring's Leases while scaling 3 -> 4 -> 3; %d samples with a "
                + "bucket listed by two members (claims being resolved), last at %s%n", sampler.samples.get(),
                sampler.samplesWithOverlap.get(), sampler.overlaps.isEmpty() ? "-"
                        : sampler.overlaps.get(sampler.overlaps.size() - 1));
        assertThat(sampler.samples.get()).as("samples of the ring").isGreaterThan(10);
        assertThat(ring().values().stream().mapToInt(java.util.Set::size).sum()).as("buckets listed once at the end")
                .isEqualTo(BUCKETS);
        // back to leader election for the scenarios after this one
        switchTo(Map.of("sharding.enabled", "false", "replicaCount", "2"));
        LocalCluster.await("two operator Pods Ready, one leading", POD_START, () -> operatorPods().stream()
                .filter(SampleChartClusterTest::ready).count() == 2 && leader() != null);
    }

    @Test
    @Order(11)
    void inItsChartsMemoryLimitTheOperatorReconcilesAsManyWebsitesAsTheNodeHoldsPodsFor() {
        String node = client.nodes().list().getItems().get(0).getMetadata().getName();
        int capacity = Integer.parseInt(client.nodes().withName(node).get().getStatus().getAllocatable().get("pods")
                .getAmount());
        // two places stay free: an operator Pod the kubelet must be able to replace is not the figure's business
        int count = capacity - podsOnTheNode(node) - 2;
        assertThat(count).as("Websites the node has Pods for (capacity %d)", capacity).isGreaterThan(50);
        String namespace = namespace("capacity");
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            client.resource(website(namespace, "site-" + i, 1, "<p>" + i + "</p>")).create();
        }

        LocalCluster.await(count + " Websites Ready, one nginx Pod each", Duration.ofMinutes(10),
                () -> client.resources(Website.class).inNamespace(namespace).list().getItems().stream()
                        .filter(SampleChartClusterTest::readyAtItsGeneration).count() == count);
        Duration allReady = Duration.ofNanos(System.nanoTime() - started);

        List<Pod> operators = operatorPods();
        assertThat(operators).allSatisfy(pod -> assertThat(pod.getStatus().getContainerStatuses()).allSatisfy(c -> {
            assertThat(c.getRestartCount()).as("%s restarts", pod.getMetadata().getName()).isZero();
            assertThat(c.getLastState() == null || c.getLastState().getTerminated() == null).as("%s terminated before",
                    pod.getMetadata().getName()).isTrue();
        }));
        Map<String, Long> workingSets = workingSets(node);
        long limit = operators.get(0).getSpec().getContainers().get(0).getResources().getLimits().get("memory")
                .getNumericalAmount().longValue();
        System.out.printf("limits: %d Websites Ready (%d nginx Pods; the node's capacity %d Pods) in %d s; the "
                + "operator Pods' working sets %s MiB of a %d MiB limit%n", count, count, capacity,
                allReady.toSeconds(), workingSets.entrySet().stream().map(e -> e.getKey() + " "
                        + e.getValue() / (1 << 20)).toList(), limit >> 20);
        assertThat(workingSets).as("the operator Pods' memory, read from the kubelet").hasSize(operators.size())
                .allSatisfy((pod, bytes) -> assertThat(bytes).isPositive().isLessThan(limit));

        // and they all go again: the cleanup of every Website behind its finalizer, then the garbage collector
        client.namespaces().withName(namespace).delete();
        LocalCluster.await("the namespace of " + count + " Websites deleted", Duration.ofMinutes(10),
                () -> client.namespaces().withName(namespace).get() == null);
    }

    /** Pods the node runs or will run: what counts against its {@code pods} capacity. */
    private static int podsOnTheNode(String node) {
        return (int) client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems().stream()
                .filter(p -> !"Succeeded".equals(p.getStatus().getPhase()) && !"Failed".equals(p.getStatus().getPhase()))
                .count();
    }

    /** Each operator container's working set (what the OOM killer weighs), from the kubelet's summary API. */
    @SuppressWarnings("unchecked")
    private static Map<String, Long> workingSets(String node) {
        Map<String, Object> summary = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                client.raw("/api/v1/nodes/" + node + "/proxy/stats/summary"), Map.class);
        Map<String, Long> workingSets = new java.util.TreeMap<>();
        for (Map<String, Object> pod : (List<Map<String, Object>>) summary.get("pods")) {
            Map<String, Object> ref = (Map<String, Object>) pod.get("podRef");
            if (!RELEASE_NAMESPACE.equals(ref.get("namespace")) || pod.get("containers") == null) {
                continue;
            }
            for (Map<String, Object> container : (List<Map<String, Object>>) pod.get("containers")) {
                Map<String, Object> memory = (Map<String, Object>) container.get("memory");
                if (memory != null && memory.get("workingSetBytes") != null) {
                    workingSets.merge((String) ref.get("name"), ((Number) memory.get("workingSetBytes")).longValue(),
                            Long::sum);
                }
            }
        }
        return workingSets;
    }

    private static boolean readyAtItsGeneration(Website now) {
        return now.getStatus() != null && Objects.equals(now.getSpec().getReplicas(), now.getStatus().getReadyReplicas())
                && Objects.equals(now.getStatus().getObservedGeneration(),
                now.getMetadata().getGeneration()) && now.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
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

    static final String DEPLOYMENT = RELEASE + "-sample-operator";
    static final String RING = DEPLOYMENT;
    static final int BUCKETS = 32;

    /** Switches between leader election and sharding as docs/sharding.md says: through zero replicas. */
    private static void switchTo(Map<String, String> values) {
        upgrade(Map.of("replicaCount", "0"));
        LocalCluster.await("no operator Pod running", POD_START, () -> client.pods().inNamespace(RELEASE_NAMESPACE)
                .withLabel("app.kubernetes.io/instance", RELEASE).list().getItems().isEmpty());
        upgrade(values);
    }

    /** Marks {@code node} unschedulable (kubectl cordon) or schedulable again. */
    private static void cordon(String node, boolean unschedulable) {
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setUnschedulable(unschedulable ? Boolean.TRUE : null);
            return n;
        });
    }

    /**
     * Asks the eviction API to evict {@code pod}, as kubectl drain does; the status code: 201 evicted,
     * 429 refused by a PodDisruptionBudget. policy/v1beta1: the version Kubernetes 1.20 serves.
     */
    private static int evict(Pod pod) {
        String body = "{\"apiVersion\":\"policy/v1beta1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\""
                + pod.getMetadata().getName() + "\",\"namespace\":\"" + pod.getMetadata().getNamespace() + "\"}}";
        var http = client.getHttpClient();
        var request = http.newHttpRequestBuilder().uri(client.getMasterUrl() + "api/v1/namespaces/"
                + pod.getMetadata().getNamespace() + "/pods/" + pod.getMetadata().getName() + "/eviction")
                .post("application/json", body.getBytes(java.nio.charset.StandardCharsets.UTF_8)).build();
        try {
            return http.sendAsync(request, String.class).get(30, java.util.concurrent.TimeUnit.SECONDS).code();
        } catch (Exception e) {
            throw new AssertionError("eviction of " + pod.getMetadata().getName() + " not answered", e);
        }
    }

    /** The ring's live Leases by holder, with the buckets each says it holds (docs/sharding.md). */
    private static Map<String, java.util.SortedSet<Integer>> ring() {
        Map<String, java.util.SortedSet<Integer>> held = new java.util.TreeMap<>();
        for (var lease : client.leases().inNamespace(RELEASE_NAMESPACE).withLabel("sharding.kubeloop.dev/ring", RING)
                .list().getItems()) {
            String holder = lease.getSpec().getHolderIdentity();
            boolean expired = lease.getSpec().getRenewTime() == null || lease.getSpec().getRenewTime().toInstant()
                    .plusSeconds(lease.getSpec().getLeaseDurationSeconds()).isBefore(java.time.Instant.now());
            if (holder != null && !holder.isEmpty() && !expired) {
                held.put(holder, ShardingE2ETest.parse(lease.getMetadata().getAnnotations() == null ? null
                        : lease.getMetadata().getAnnotations().get("sharding.kubeloop.dev/held")));
            }
        }
        return held;
    }

    /** Waits until {@code members} Ready replicas hold every bucket between them, each its quota, none twice. */
    private static void awaitRing(int members) {
        LocalCluster.await(members + " Ready operator Pods holding the " + BUCKETS + " buckets, each its share",
                POD_START, () -> {
                    if (operatorPods().stream().filter(SampleChartClusterTest::ready).count() != members) {
                        return false;
                    }
                    List<java.util.SortedSet<Integer>> shares = ring().values().stream().filter(s -> !s.isEmpty())
                            .toList();
                    java.util.Set<Integer> all = new java.util.TreeSet<>();
                    shares.forEach(all::addAll);
                    return shares.size() == members && all.size() == BUCKETS
                            && shares.stream().mapToInt(java.util.Set::size).sum() == BUCKETS
                            && shares.stream().allMatch(s -> s.size() >= BUCKETS / members
                                    && s.size() <= BUCKETS / members + 1);
                });
    }

    /** Edits every site's page to {@code page} and waits until each is reconciled and serves it. */
    private static void awaitPages(String namespace, List<String> sites, String page) {
        for (String name : sites) {
            // the replica that holds the site's bucket may be writing it (its slot label): a conflict is retried
            LocalCluster.await(name + " edited to " + page, POD_START, () -> {
                try {
                    client.resources(Website.class).inNamespace(namespace).withName(name).edit(w -> {
                        w.getSpec().setPage(page);
                        return w;
                    });
                    return true;
                } catch (KubernetesClientException e) {
                    if (e.getCode() == 409) {
                        return false;
                    }
                    throw e;
                }
            });
        }
        for (String name : sites) {
            awaitReady(client.resources(Website.class).inNamespace(namespace).withName(name).get(), 1);
            String clusterIp = client.services().inNamespace(namespace).withName(name).get().getSpec().getClusterIP();
            awaitServing(name + " serving " + page, clusterIp, page);
        }
    }

    /**
     * Reads the ring's Leases every 200 ms on its own thread and keeps every moment at which one
     * bucket was in two live members' held sets (one list: one consistent view of the Leases): claims
     * being resolved, reported with the figures.
     */
    private static final class RingSampler {
        final java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        final List<String> overlaps = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger samplesWithOverlap = new java.util.concurrent.atomic.AtomicInteger();
        private final Thread thread = new Thread(this::run, "ring-sampler");

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void stop() {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void run() {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Map<String, java.util.SortedSet<Integer>> held = ring();
                    Map<Integer, String> holderOf = new java.util.HashMap<>();
                    List<String> twice = new ArrayList<>();
                    held.forEach((holder, buckets) -> buckets.forEach(bucket -> {
                        String other = holderOf.put(bucket, holder);
                        if (other != null) {
                            twice.add(bucket + " (" + other + ", " + holder + ")");
                        }
                    }));
                    if (!twice.isEmpty()) {
                        samplesWithOverlap.incrementAndGet();
                        overlaps.add(java.time.Instant.now() + ": " + twice);
                    }
                    samples.incrementAndGet();
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (KubernetesClientException e) {
                    // a failed read is no sample; the next one comes 200 ms later
                }
            }
        }
    }

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
        return LocalCluster.ready(pod);
    }

    private static List<Pod> operatorPods() {
        return LocalCluster.releasePods(client, RELEASE_NAMESPACE, RELEASE);
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
        try {
            LocalCluster.await(site.getMetadata().getName() + ": readyReplicas " + replicas + " and Ready=True",
                    POD_START, () -> {
                        Website now = resource.get();
                        return now.getStatus() != null
                                && Integer.valueOf(replicas).equals(now.getStatus().getReadyReplicas())
                                && Objects.equals(now.getStatus().getObservedGeneration(),
                                        now.getMetadata().getGeneration())
                                && now.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready")
                                        && c.getStatus().equals("True"));
                    });
        } catch (AssertionError e) {
            // what the operator saw and logged, now: a later test may replace its Pod, and its log with it
            LocalCluster.keepLogs(client, Path.of("target/cluster-logs/when-" + site.getMetadata().getNamespace()
                    + "-" + site.getMetadata().getName() + "-was-not-ready"));
            var deployment = client.apps().deployments().inNamespace(site.getMetadata().getNamespace())
                    .withName(site.getMetadata().getName()).get();
            Website now = resource.get(); // one read: generation and status of the same version
            throw new AssertionError(e.getMessage() + "; the Website: generation "
                    + now.getMetadata().getGeneration() + ", status " + now.getStatus()
                    + "; its Deployment: generation " + (deployment == null ? null
                            : deployment.getMetadata().getGeneration() + ", status " + deployment.getStatus()), e);
        }
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

    /** Waits until the Service at {@code clusterIp} serves {@code page}; on timeout, says what it served last. */
    private static void awaitServing(String what, String clusterIp, String page) {
        AtomicReference<String> served = new AtomicReference<>();
        try {
            LocalCluster.await(what, POD_START, () -> {
                served.set(fetchOrNull(clusterIp));
                return page.equals(served.get());
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; it served " + served.get(), e);
        }
    }

    private static String fetchOrNull(String clusterIp) {
        try {
            return fetch(clusterIp);
        } catch (Exception | AssertionError e) {
            return null;
        }
    }
}
