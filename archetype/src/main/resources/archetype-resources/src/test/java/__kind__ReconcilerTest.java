package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The reconciler against the test kit's API server (an embedded one; a real cluster when
 * KUBECONFIG is set): the Kubeloop runtime, the informers and the reconciler run as in production,
 * with every CRD the build generated.
 */
@KubeloopTest(properties = "operator.embedded-api-server=off")
class ${kind}ReconcilerTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aNew${kind}GetsItsConfigMapAndTurnsReady() {
        ${kind} resource = kit.awaitReconciled(client.resource(${kind.toLowerCase()}("first", "hello")).create());

        ConfigMap configMap = kit.owned(resource, ConfigMap.class).get(0);
        assertThat(configMap.getData()).containsEntry(${kind}Reconciler.MESSAGE_KEY, "hello");
        assertThat(configMap.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getController()).isTrue());
        assertThat(resource.getStatus().getObservedGeneration()).isEqualTo(resource.getMetadata().getGeneration());
        assertThat(resource.getStatus().getConditions()).singleElement().satisfies(ready -> {
            assertThat(ready.getType()).isEqualTo(${kind}Reconciler.READY);
            assertThat(ready.getStatus()).isEqualTo("True");
        });
        kit.awaitEvent(resource, "MessagePublished");
    }

    @Test
    void anEditedConfigMapIsRepaired() {
        ${kind} resource = kit.awaitReconciled(client.resource(${kind.toLowerCase()}("drift", "as wanted")).create());
        ConfigMap configMap = kit.owned(resource, ConfigMap.class).get(0);

        client.configMaps().inNamespace(configMap.getMetadata().getNamespace())
                .withName(configMap.getMetadata().getName())
                .edit(edited -> {
                    edited.getData().put(${kind}Reconciler.MESSAGE_KEY, "changed by hand");
                    return edited;
                });

        // the ConfigMap is owned, so its change reconciles the ${kind}, whose apply puts the message back
        kit.awaitEvent(resource, "Repaired");
        assertThat(client.resource(configMap).get().getData())
                .containsEntry(${kind}Reconciler.MESSAGE_KEY, "as wanted");
    }

    private ${kind} ${kind.toLowerCase()}(String name, String message) {
        ${kind} resource = new ${kind}();
#if ($namespaced == 'true')
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(kit.namespace()).build());
#else
        resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
#end
        resource.getSpec().setMessage(message);
        return resource;
    }
}
