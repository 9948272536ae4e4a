package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.MockCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile's client checks its fence immediately before each write leaves: once the permit no
 * longer holds, writes are refused on the client side (the server never sees them), reads still
 * pass, and a retry fabric8 would send from its own scheduler ends the waiting call instead of
 * leaving it hanging.
 */
class RequestFenceTest {

    private final MockCluster cluster = MockCluster.empty();
    private final KubernetesClient client = cluster.client();

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void aWriteIsRefusedBeforeItLeavesOnceThePermitNoLongerHoldsAndReadsStillPass() {
        AtomicBoolean holds = new AtomicBoolean(true);
        try (RequestFence fence = new FencedClients(client, true).open(holds::get)) {
            KubernetesClient fenced = fence.client();
            fenced.configMaps().inNamespace("ns").resource(configMap("sent")).create();

            holds.set(false);
            int before = cluster.requests().size();

            assertThatThrownBy(() -> fenced.configMaps().inNamespace("ns").resource(configMap("refused")).create())
                    .hasMessageContaining("POST /api/v1/namespaces/ns/configmaps not sent");
            assertThatThrownBy(() -> fenced.adapt(io.fabric8.kubernetes.client.NamespacedKubernetesClient.class).inNamespace("ns").configMaps().withName("sent").delete())
                    .as("a derived client is fenced too").hasMessageContaining("not sent");
            assertThat(cluster.requests()).as("nothing reached the server").hasSize(before);

            assertThat(fenced.configMaps().inNamespace("ns").withName("sent").get()).as("reads pass").isNotNull();
            assertThat(client.configMaps().inNamespace("ns").withName("refused").get()).isNull();
        }
    }

    @Test
    void anUnfencedManagerHandsOutItsOwnClient() {
        try (RequestFence fence = new FencedClients(client, false).open(() -> false)) {
            assertThat(fence.client()).isSameAs(client);
        }
    }

    @Test
    void aRetryRefusedOnFabric8sSchedulerEndsTheWaitingCallInsteadOfLeavingItHanging() throws Exception {
        // the first attempt is answered 500, which fabric8 retries after 100 ms on its scheduler thread
        cluster.faults().on("POST", "/api/v1/namespaces/ns/configmaps").next(1).answer(ApiError.internalError());
        AtomicInteger checks = new AtomicInteger();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reconcile = new Thread(() -> {
            // holds for the first attempt only: the replica was paused during the client's backoff
            try (RequestFence fence = new FencedClients(client, true).open(() -> checks.incrementAndGet() == 1)) {
                fence.client().configMaps().inNamespace("ns").resource(configMap("retried")).create();
                outcome.complete(null);
            } catch (RuntimeException e) {
                outcome.complete(e);
            }
        }, "reconcile");
        reconcile.start();

        Throwable failure = outcome.get(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(failure).as("the call failed instead of hanging").isNotNull();
        assertThat(checks.get()).isEqualTo(2);
        assertThat(cluster.requests(r -> r.getMethod().equals("POST"))).as("only the first attempt left").hasSize(1);
        assertThat(client.configMaps().inNamespace("ns").withName("retried").get()).isNull();
        reconcile.join(5_000);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
                .addToData("k", "v").build();
    }
}
