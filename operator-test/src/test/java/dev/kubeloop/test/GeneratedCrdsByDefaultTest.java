package dev.kubeloop.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code @KubeloopTest} without {@code crds}: every CRD the build generated (META-INF/fabric8 on the
 * class path) is applied, so a project's tests need no edit when it gains a kind.
 */
@KubeloopTest
class GeneratedCrdsByDefaultTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void theGeneratedCrdIsAppliedWithoutBeingNamed() {
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName("gadgets.kit.kubeloop.dev").get())
                .isNotNull();

        Gadget reconciled = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "unnamed-crd")).create());

        assertThat(kit.owned(reconciled, ConfigMap.class)).hasSize(1);
    }
}
