package dev.kubeloop.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster-scoped owner (a Namespace stands in for a cluster-scoped custom resource) may own
 * namespaced objects in any namespace, and its events are recorded in {@code default}: the kit
 * looks there, instead of asking the API server for namespace null.
 */
class ClusterScopedOwnerTest {

    private final MockTestCluster cluster = MockTestCluster.start(List.of());
    private final KubeloopTestKit kit = new KubeloopTestKit(cluster, null);

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void ownedObjectsAreFoundInEveryNamespaceAndEventsInDefault() {
        KubernetesClient client = cluster.client();
        Namespace owner = client.resource(new NamespaceBuilder().withNewMetadata().withName("owner").endMetadata()
                .build()).create();
        client.resource(ownedConfigMap("team-a", owner)).create();
        client.resource(ownedConfigMap("team-b", owner)).create();
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("unrelated").withNamespace("team-a")
                .endMetadata().build()).create();
        client.resource(new EventBuilder().withNewMetadata().withName("owner.1").withNamespace("default").endMetadata()
                .withReason("Reconciled").withNewInvolvedObject().withKind("Namespace").withName("owner")
                .withUid(owner.getMetadata().getUid()).endInvolvedObject().build()).create();

        assertThat(kit.owned(owner, ConfigMap.class)).extracting(c -> c.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("team-a", "team-b");
        assertThat(kit.eventReasons(owner)).containsExactly("Reconciled");
    }

    private static ConfigMap ownedConfigMap(String namespace, Namespace owner) {
        return new ConfigMapBuilder().withNewMetadata().withName("owned").withNamespace(namespace)
                .addNewOwnerReference().withApiVersion("v1").withKind("Namespace").withName("owner")
                .withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata().build();
    }
}
