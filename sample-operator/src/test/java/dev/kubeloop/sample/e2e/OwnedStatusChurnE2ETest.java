package dev.kubeloop.sample.e2e;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An owned object's status moving in quick succession while the reconciler writes its primary's
 * status, on a real API server: what a Deployment's rollout does (the Deployment controller writes
 * its status several times within a second: 1, 2, 3 then 2 ready replicas as the surge pod comes
 * and the old one goes), sometimes while the Website's spec changes too. The last status of every
 * Deployment must reach its Website: an event lost between the informer and the queue, or a
 * reconcile that read an older Deployment than the event that queued it, leaves a Website
 * describing a rollout that is over, until the next resync (seen once on the real cluster,
 * SampleChartClusterTest, with the Deployment controller's own writes).
 *
 * <p>No kubelet and no Deployment controller here ({@code sample.demo=off}): the test writes the
 * Deployments' status itself, through their {@code /status} subresource, as the controller does.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class OwnedStatusChurnE2ETest {

    private static final int SITES = 20;
    private static final int ROUNDS = 15;
    /** Ready replicas as a rollout of 2 replicas with one surge pod reports them, in order. */
    private static final int[] ROLLOUT = {1, 2, 3, 2};
    private static final Duration CONVERGE = Duration.ofSeconds(30);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void theLastStatusOfEveryOwnedDeploymentReachesItsWebsite() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < SITES; i++) {
            String name = String.format("churn-%02d", i);
            Website site = Sites.website(kit.namespace(), name, "v0");
            site.getSpec().setReplicas(2);
            client.resource(site).create();
            names.add(name);
        }
        kit.await("every Website's Deployment", CONVERGE, () -> names.stream().allMatch(name ->
                client.apps().deployments().inNamespace(kit.namespace()).withName(name).get() != null));

        ExecutorService kubelets = Executors.newFixedThreadPool(4);
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                int current = round;
                List<Future<?>> rollouts = new ArrayList<>();
                for (String name : names) {
                    rollouts.add(kubelets.submit(() -> rollout(name, current)));
                }
                for (Future<?> rollout : rollouts) {
                    rollout.get(60, TimeUnit.SECONDS);
                }
                awaitStatusesReached(names, current);
            }
        } finally {
            kubelets.shutdownNow();
        }
    }

    /**
     * One rollout's status writes, a few milliseconds apart; in every other round, the Website's page
     * changes first, so that the reconciles also apply the Deployment and write the status anew.
     */
    private void rollout(String name, int round) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (round % 2 == 0) {
            client.resources(Website.class).inNamespace(kit.namespace()).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"page\":\"v" + round + "\"}}");
        }
        for (int ready : ROLLOUT) {
            // a merge patch of /status, not locked on a version: the reconciles apply the Deployment meanwhile
            client.apps().deployments().inNamespace(kit.namespace()).withName(name).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), String.format("{\"status\":{\"replicas\":%d,"
                            + "\"readyReplicas\":%d,\"availableReplicas\":%d,\"updatedReplicas\":%d}}",
                            Math.max(ready, 2), ready, ready, Math.min(ready, 2)));
            try {
                TimeUnit.MILLISECONDS.sleep(random.nextInt(0, 25)); // the spacing of the controller's writes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void awaitStatusesReached(List<String> names, int round) {
        try {
            kit.await("round " + round + ": every Website's readyReplicas is its Deployment's last", CONVERGE,
                    () -> stale(names).isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError("round " + round + ": Websites whose status missed their Deployment's last "
                    + "status (Website readyReplicas / Deployment readyReplicas): " + stale(names), e);
        }
    }

    /** The Websites whose readyReplicas is not their Deployment's, with both values. */
    private Map<String, String> stale(List<String> names) {
        Map<String, Integer> deployments = client.apps().deployments().inNamespace(kit.namespace()).list().getItems()
                .stream().filter(d -> d.getStatus() != null)
                .collect(Collectors.toMap(d -> d.getMetadata().getName(), OwnedStatusChurnE2ETest::ready));
        return client.resources(Website.class).inNamespace(kit.namespace()).list().getItems().stream()
                .filter(site -> names.contains(site.getMetadata().getName()))
                .filter(site -> site.getStatus() == null
                        || !Objects.equals(site.getStatus().getReadyReplicas(),
                                deployments.get(site.getMetadata().getName())))
                .collect(Collectors.toMap(site -> site.getMetadata().getName(), site -> (site.getStatus() == null
                        ? "none" : site.getStatus().getReadyReplicas()) + " / "
                        + deployments.get(site.getMetadata().getName())));
    }

    private static Integer ready(Deployment deployment) {
        Integer ready = deployment.getStatus().getReadyReplicas();
        return ready == null ? 0 : ready;
    }
}
