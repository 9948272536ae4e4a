package dev.kubeloop.kit.undeclared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.kubeloop.test.Gadget;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A user's test whose reconciles prune a kind the reconciler does not declare in
 * {@code @Reconciler(deletes)} fails, naming the controller, the kind and the fix, because the RBAC
 * generated from the code would refuse that delete in a cluster; with the opt-out for hand-written
 * RBAC it passes. The users' tests are the nested classes, run with JUnit's EngineTestKit (named
 * so that no surefire pattern of {@code *Test} runs them on their own: one of them fails on purpose).
 */
class UndeclaredDeletesFailTheTestTest {

    private static final String CRD = "classpath:META-INF/fabric8/gadgets.kit.kubeloop.dev-v1.yml";

    @Test
    void aTestWhoseReconcilesPruneAnUndeclaredKindFailsNamingTheFix() {
        List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(UsersClass.class)).execute()
                .testEvents().failed().list();

        assertThat(failed).singleElement().satisfies(event -> assertThat(event.getRequiredPayload(
                TestExecutionResult.class).getThrowable()).get().isInstanceOf(AssertionError.class)
                .extracting(Throwable::getMessage).asString().contains(
                        "controller pruning-gadget deleted an object of kind ConfigMap",
                        "add ConfigMap.class to @Reconciler(deletes)",
                        "@KubeloopTest(failOnUndeclaredDeletes = false)"));
    }

    @Test
    void theOptOutForHandWrittenRbacLetsTheSameTestPass() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(UsersClassWithHandWrittenRbac.class)).execute()
                .testEvents().assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
    }

    /** What a user writes: a new size, awaited; its reconcile prunes the last size's ConfigMap. */
    @KubeloopTest(crds = CRD, classes = PruningGadgets.class)
    static class UsersClass {

        @Autowired
        KubernetesClient client;

        @Autowired
        KubeloopTestKit kit;

        @Test
        void resizing() {
            Gadget gadget = new Gadget();
            gadget.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName("g").build());
            gadget.setSpec(new Gadget.Spec());
            kit.awaitReconciled(client.resource(gadget).create());

            Gadget resized = client.resources(Gadget.class).inNamespace(kit.namespace()).withName("g").edit(g -> {
                g.getSpec().setSize(1);
                return g;
            });
            kit.awaitReconciled(resized);

            assertThat(client.configMaps().inNamespace(kit.namespace()).withName("g-0").get()).isNull();
            assertThat(client.configMaps().inNamespace(kit.namespace()).withName("g-1").get())
                    .extracting(ConfigMap::getData).isNotNull();
        }
    }

    @KubeloopTest(crds = CRD, classes = PruningGadgets.class, failOnUndeclaredDeletes = false)
    static class UsersClassWithHandWrittenRbac extends UsersClass {
    }
}
