package dev.kubeloop.acceptance.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeloop.api.conditions.Conditions;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The original's behaviour (memcached_controller_test.go and what memcached_controller.go does)
 * against the kit's API server: embedded, or the real one when KUBECONFIG is set. Memcached has no
 * status.observedGeneration, so the tests wait on its Available condition instead of
 * {@code kit.awaitReconciled}.
 */
@KubeloopTest(crds = "classpath:" + Memcached.CRD,
        properties = {"operator.embedded-api-server=off", "MEMCACHED_IMAGE=example.com/image:test"})
class MemcachedReconcilerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aNewMemcachedGetsADeploymentOfItsSizeAndTurnsAvailable() {
        Memcached memcached = client.resource(memcached("test-memcached", 1)).create();

        Memcached available = awaitAvailable(memcached, 1);
        assertThat(available.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Available"))
                .singleElement().satisfies(c -> assertThat(c.getReason()).isEqualTo("Reconciling"));
        assertThat(available.getMetadata().getFinalizers()).containsExactly(MemcachedReconciler.FINALIZER);

        Deployment deployment = deployment(memcached);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(1);
        assertThat(deployment.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getController()).isTrue());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/name", "memcached-operator")
                .containsEntry("app.kubernetes.io/version", "test")
                .containsEntry("app.kubernetes.io/managed-by", "MemcachedController");
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("example.com/image:test");
        assertThat(container.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getContainerPort()).isEqualTo(11211);
            assertThat(port.getName()).isEqualTo("memcached");
        });
        assertThat(container.getSecurityContext().getRunAsUser()).isEqualTo(1001L);
    }

    @Test
    void aResizedMemcachedResizesItsDeployment() {
        Memcached memcached = client.resource(memcached("resized", 1)).create();
        awaitAvailable(memcached, 1);

        client.resources(Memcached.class).inNamespace(kit.namespace()).withName("resized").edit(m -> {
            m.getSpec().setSize(3);
            return m;
        });

        awaitAvailable(memcached, 3);
        assertThat(deployment(memcached).getSpec().getReplicas()).isEqualTo(3);
    }

    @Test
    void aDeploymentScaledByHandIsScaledBack() {
        Memcached memcached = client.resource(memcached("scaled-by-hand", 2)).create();
        awaitAvailable(memcached, 2);

        client.apps().deployments().inNamespace(kit.namespace()).withName("scaled-by-hand").scale(1);

        kit.await("the Deployment scaled back to 2", TIMEOUT,
                () -> deployment(memcached).getSpec().getReplicas() == 2);
    }

    @Test
    void aDeletedMemcachedIsFinalizedWithAWarningEvent() {
        Memcached memcached = client.resource(memcached("deleted", 1)).create();
        Memcached available = awaitAvailable(memcached, 1);

        client.resource(available).delete();

        kit.await("the Memcached is gone (its finalizer removed)", TIMEOUT,
                () -> client.resource(memcached).get() == null);
        assertThat(kit.awaitEvent(available, "Deleting")).satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getMessage()).isEqualTo("Custom Resource deleted is being deleted from the namespace "
                    + kit.namespace());
        });
    }

    @Test
    void aSizeOutsideTheSchemaBoundsIsRefused() {
        assumeTrue(kit.realCluster(), "the embedded API server does not validate against the CRD's schema");

        assertThatThrownBy(() -> client.resource(memcached("too-big", 4)).create())
                .isInstanceOf(KubernetesClientException.class)
                .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
                .hasMessageContaining("spec.size");
    }

    private Memcached awaitAvailable(Memcached memcached, int replicas) {
        String message = "Deployment for custom resource (" + memcached.getMetadata().getName() + ") with " + replicas
                + " replicas created successfully";
        kit.await("Available with " + replicas + " replicas", TIMEOUT, () -> {
            Memcached latest = client.resource(memcached).get();
            Condition available = Conditions.find(latest.getStatus().getConditions(), "Available").orElseThrow();
            return available.getStatus().equals("True") && available.getMessage().equals(message);
        });
        return client.resource(memcached).get();
    }

    private Deployment deployment(Memcached memcached) {
        return client.apps().deployments().inNamespace(kit.namespace()).withName(memcached.getMetadata().getName()).get();
    }

    private Memcached memcached(String name, int size) {
        Memcached memcached = new Memcached();
        memcached.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(kit.namespace()).build());
        memcached.getSpec().setSize(size);
        memcached.getSpec().setContainerPort(11211);
        return memcached;
    }
}
