package dev.kubeloop.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The kit as a user meets it: one annotation, an API server of the test's own, waits that end when
 * the runtime is done. Runs against the embedded mock server, or the cluster KUBECONFIG points at.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/gadgets.kit.kubeloop.dev-v1.yml")
class KubeloopTestKitTest {

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void awaitReconciledReturnsOnceStatusCaughtUpAndOwnedObjectsExist() {
        Gadget created = client.resource(Gadget.named(kit.namespace(), "first")).create();

        Gadget reconciled = kit.awaitReconciled(created);

        assertThat(reconciled.getStatus().getObservedGeneration()).isEqualTo(reconciled.getMetadata().getGeneration());
        assertThat(kit.owned(reconciled, ConfigMap.class)).singleElement()
                .satisfies(configMap -> assertThat(configMap.getData()).containsEntry("size", "0"));
        assertThat(kit.awaitEvent(reconciled, "Created").getMessage()).isEqualTo("Created ConfigMap first");
    }

    @Test
    void awaitReconciledReturnsWithTheKeyIdleOnceTheReconcilesOwnWritesHaveReachedTheController() {
        // the reconciler creates its ConfigMap through the raw client: its event is no echo, it queues the
        // Gadget again, and the kit must not return before that event was taken in and its reconcile ran
        for (int i = 0; i < 20; i++) {
            Gadget reconciled = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "quiet-" + i))
                    .create());

            assertThat(kit.controller("gadget").state(ObjectKey.of(reconciled)).busy()).isFalse();
            assertThat(kit.metrics("gadget").queue().depth()).isZero();
        }
    }

    @Test
    void awaitIdleReturnsOnlyOnceAnObjectJustCreatedHasBeenReconciled() {
        for (int i = 0; i < 20; i++) {
            long before = kit.metrics("gadget").outcomes().get(ReconcileOutcome.SUCCESS);
            Gadget created = client.resource(Gadget.named(kit.namespace(), "fresh-" + i)).create();

            kit.awaitIdle();

            assertThat(kit.metrics("gadget").outcomes().get(ReconcileOutcome.SUCCESS)).isGreaterThan(before);
            assertThat(client.resource(created).get().getStatus()).isNotNull();
        }
    }

    @Test
    void awaitReconciledWaitsForTheNewGenerationAfterASpecChange() {
        Gadget created = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "resized")).create());
        created.getSpec().setSize(7);
        Gadget updated = client.resource(created).update();
        assertThat(updated.getMetadata().getGeneration()).isGreaterThan(created.getMetadata().getGeneration());

        Gadget reconciled = kit.awaitReconciled(updated);

        assertThat(reconciled.getStatus().getObservedGeneration()).isEqualTo(updated.getMetadata().getGeneration());
        assertThat(kit.owned(reconciled, ConfigMap.class)).singleElement()
                .satisfies(configMap -> assertThat(configMap.getData()).containsEntry("size", "7"));
    }

    @Test
    void aTriggeredReconcileRunsAndShowsInTheControllersMetrics() {
        Gadget gadget = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "triggered")).create());
        long before = kit.metrics("gadget").outcomes().get(ReconcileOutcome.SUCCESS);

        kit.reconcile(gadget);

        kit.await("a further successful reconcile", () -> kit.metrics("gadget").outcomes()
                .get(ReconcileOutcome.SUCCESS) > before);
        kit.awaitIdle();
        assertThat(kit.metrics("gadget").queue().depth()).isZero();
    }

    @Test
    void aWaitThatCannotSucceedFailsWithWhatIsQueuedAndTheLastErrorOfTheKey() {
        Gadget failing = Gadget.named(kit.namespace(), "failing");
        failing.getSpec().setFail(true);
        Gadget created = client.resource(failing).create();

        assertThatThrownBy(() -> kit.awaitReconciled(created, Duration.ofSeconds(2)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Timed out after 2000 ms waiting until reconciled: Gadget " + kit.namespace()
                        + "/failing")
                .hasMessageContaining("controller gadget:")
                .hasMessageContaining("last error " + kit.namespace() + "/failing")
                .hasMessageContaining("boom: gadget failing asked to fail");
    }

    @Test
    void awaitReconciledWithTheTestsOwnConditionForAStatusWithoutObservedGeneration() {
        Gadget created = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "conditioned")).create());
        created.getSpec().setSize(3);
        Gadget updated = client.resource(created).update();

        // what a port of an operator whose status has no observedGeneration would wait on: what its reconciler writes
        Gadget reconciled = kit.awaitReconciled(updated, g -> kit.owned(g, ConfigMap.class).stream()
                .anyMatch(c -> "3".equals(c.getData().get("size"))));

        assertThat(kit.controller("gadget").state(ObjectKey.of(reconciled)).busy()).isFalse();
        assertThat(kit.journal().of(reconciled)).last().satisfies(entry ->
                assertThat(entry.outcome()).isEqualTo(ReconcileOutcome.SUCCESS));
    }

    @Test
    void theJournalShowsWhichObjectsWereReconciledAndHowTheyEnded() {
        Gadget quiet = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "journal-quiet")).create());
        Gadget edited = kit.awaitReconciled(client.resource(Gadget.named(kit.namespace(), "journal-edited")).create());
        kit.awaitIdle();
        int before = kit.journal().position();

        edited.getSpec().setSize(5);
        kit.awaitReconciled(client.resource(edited).update());
        kit.awaitIdle();

        // the class's other tests leave Gadgets that always fail in the namespace, retried with backoff
        // whenever it comes due (awaitIdle does not wait for a delayed retry): this test's are these two
        List<ObjectKey> mine = List.of(ObjectKey.of(quiet), ObjectKey.of(edited));
        assertThat(kit.journal().keysSince(before)).filteredOn(mine::contains).as("only the edited Gadget was reconciled")
                .containsExactly(ObjectKey.of(edited));
        assertThat(kit.journal().since(before)).filteredOn(entry -> mine.contains(entry.key())).isNotEmpty()
                .allSatisfy(entry -> {
                    assertThat(entry.controller()).isEqualTo("gadget");
                    assertThat(entry.outcome()).isEqualTo(ReconcileOutcome.SUCCESS);
                    assertThat(entry.attempt()).isEqualTo(1);
                    assertThat(entry.error()).isNull();
                });
        assertThat(kit.journal().of(quiet)).isNotEmpty().noneMatch(entry -> kit.journal().since(before).contains(entry));
    }

    @Test
    void aFailingKeyShowsInTheJournalWithItsAttemptsAndError() {
        Gadget failing = Gadget.named(kit.namespace(), "journal-failing");
        failing.getSpec().setFail(true);
        Gadget created = client.resource(failing).create();

        kit.await("two failed attempts in the journal", () -> kit.journal().of(created).size() >= 2);

        assertThat(kit.journal().of(created)).first().satisfies(entry -> {
            assertThat(entry.outcome()).isEqualTo(ReconcileOutcome.ERROR);
            assertThat(entry.attempt()).isEqualTo(1);
            assertThat(entry.error()).hasMessageContaining("asked to fail");
        });
        assertThat(kit.journal().of(created).get(1).attempt()).isEqualTo(2);
        client.resource(created).delete();
    }

    @Test
    void theClientAndNamespaceBelongToThisTestClass() {
        assertThat(kit.client()).isSameAs(client);
        if (kit.realCluster()) {
            assertThat(kit.namespace()).startsWith("kl-kubeloop-test-kit-test-");
        } else {
            assertThat(kit.namespace()).isEqualTo("test");
        }
    }
}
