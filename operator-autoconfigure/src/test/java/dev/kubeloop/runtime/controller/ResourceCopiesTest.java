package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.client.ResourceCopies;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ResourceCopiesTest {

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Test
    void aCopyOfACustomResourceIsEqualAndSharesNoMutableState() {
        Widget original = Widget.named("ns", "a").withLabel("tier", "web");
        original.setStatus(new Widget.Status());
        original.getStatus().setMessage("ready");

        Widget copy = ResourceCopies.deepCopy(serialization, original);

        assertThat(serialization.asJson(copy)).isEqualTo(serialization.asJson(original));
        copy.getSpec().setColor("red");
        copy.getStatus().setMessage("changed");
        copy.getMetadata().getLabels().put("tier", "db");
        assertThat(original.getSpec().getColor()).isEqualTo("blue");
        assertThat(original.getStatus().getMessage()).isEqualTo("ready");
        assertThat(original.getMetadata().getLabels()).containsEntry("tier", "web");
    }

    @Test
    void aCopyOfABuiltInTypeKeepsEveryField() {
        Deployment original = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("ns")
                .withResourceVersion("7").endMetadata()
                .withNewSpec().withReplicas(3).withNewTemplate().withNewSpec().addNewContainer().withName("c")
                .withImage("nginx").endContainer().endSpec().endTemplate().endSpec()
                .withNewStatus().withReadyReplicas(2).endStatus().build();

        Deployment copy = ResourceCopies.deepCopy(serialization, original);

        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        copy.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("httpd");
        assertThat(original.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
    }

    @Test
    void aCopyWithoutManagedFieldsLeavesTheOriginalAsItWas() {
        Widget original = Widget.named("ns", "a").withLabel("tier", "web");
        original.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubeloop")
                .withOperation("Apply").withApiVersion("kubeloop.dev/v1").withFieldsType("FieldsV1").build()));
        String before = serialization.asJson(original);

        Widget copy = ResourceCopies.deepCopyWithoutManagedFields(serialization, original);

        assertThat(copy.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(serialization.asJson(original)).as("the original, restored").isEqualTo(before);
        copy.getMetadata().setManagedFields(original.getMetadata().getManagedFields());
        assertThat(serialization.asJson(copy)).as("everything else copied").isEqualTo(before);
    }

    @Test
    void statusIsReadFromTheObjectForEveryKindOfResource() {
        Widget widget = Widget.named("ns", "a");
        widget.setStatus(new Widget.Status());
        Deployment deployment = new DeploymentBuilder().withNewStatus().withReadyReplicas(2).endStatus().build();
        GenericKubernetesResource generic = new GenericKubernetesResourceBuilder().withApiVersion("x.dev/v1")
                .withKind("Thing").withNewMetadata().withName("t").endMetadata()
                .addToAdditionalProperties("status", Map.of("phase", "Ready")).build();
        ConfigMap noStatus = new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build();

        assertThat(ResourceCopies.status(serialization, widget)).isSameAs(widget.getStatus());
        assertThat(ResourceCopies.status(serialization, deployment)).isSameAs(deployment.getStatus());
        assertThat(ResourceCopies.status(serialization, generic)).isEqualTo(Map.of("phase", "Ready"));
        assertThat(ResourceCopies.status(serialization, noStatus)).isNull();
    }

    @Test
    void reconcileIdsAreDistinctVersion4Uuids() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            String id = ReconcileIds.next();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            ids.add(id);
        }
        assertThat(ids).hasSize(1_000);
    }
}
