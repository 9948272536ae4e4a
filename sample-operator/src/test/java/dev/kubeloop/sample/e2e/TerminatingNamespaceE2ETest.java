package dev.kubeloop.sample.e2e;

import static dev.kubeloop.sample.e2e.Polls.secondsSince;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Deleting the namespace of Websites on the real API server completes. The script's API server
 * runs no namespace controller, so this test does its work, in the order that used to hang: the
 * namespace is set Terminating by its delete, its ConfigMaps (the {@code website-index} among
 * them), Deployments and Services are deleted, then the Websites; at the end the namespace's
 * {@code kubernetes} finalizer is removed through the {@code finalize} subresource.
 *
 * <p>Before: each Website's cleanup applied the index without its entry, which in a namespace
 * being deleted is a create and refused ("unable to create new content in namespace ... because it
 * is being terminated"); the finalizer stayed for ever, and every retry's Warning Event was
 * refused too. Now the refusal means "no index left to remove the entry from", the finalizer goes,
 * and the namespace can finish. (Meanwhile the reconciles that would re-create the deleted owned
 * objects are refused the same way: one WARN line each, no Event, retried until the Website goes.)
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", properties = "sample.demo=off")
class TerminatingNamespaceE2ETest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void deletingTheNamespaceOfWebsitesCompletes() {
        LocalApiServer.assumeUnderTest(); // a cluster's namespace controller would race this test's
        String namespace = kit.namespace();
        for (String name : List.of("first", "second")) {
            kit.awaitReconciled(client.resource(Sites.website(namespace, name, "<p>" + name + "</p>")).create());
        }
        assertThat(Sites.index(client, namespace)).containsKeys("first", "second");
        kit.awaitIdle();
        long errors = Sites.failedReconciles(kit);

        long namespaceDeleted = System.nanoTime();
        client.namespaces().withName(namespace).delete();
        kit.await("the namespace is Terminating", () -> "Terminating".equals(phase(namespace)));
        // the namespace controller's work: everything in it goes; here the index before the Websites
        int configMaps = client.configMaps().inNamespace(namespace).delete().size();
        int deployments = client.apps().deployments().inNamespace(namespace).delete().size();
        int services = client.services().inNamespace(namespace).delete().size();
        kit.await("the index is gone", () -> client.configMaps().inNamespace(namespace).withName(Sites.INDEX).get()
                == null);
        int events = client.v1().events().inNamespace(namespace).list().getItems().size();
        long websitesDeleted = System.nanoTime();
        client.resources(Website.class).inNamespace(namespace).delete();

        kit.await("every Website's cleanup ran and its finalizer is gone", DEADLINE,
                () -> client.resources(Website.class).inNamespace(namespace).list().getItems().isEmpty());
        double websitesGone = secondsSince(websitesDeleted);
        kit.awaitIdle(); // nothing left to retry: the reconciles refused meanwhile (owned objects re-created) ended
        assertThat(client.configMaps().inNamespace(namespace).withName(Sites.INDEX).get()).as("the index")
                .isNull();
        int eventsAfter = client.v1().events().inNamespace(namespace).list().getItems().size();

        client.v1().events().inNamespace(namespace).delete();
        Namespace terminating = client.namespaces().withName(namespace).get();
        terminating.getSpec().setFinalizers(List.of());
        client.namespaces().resource(terminating).subresource("finalize").update();
        kit.await("the namespace is gone", () -> client.namespaces().withName(namespace).get() == null);
        System.out.printf(Locale.ROOT, "[reliability] odd-states terminating-namespace: 2 Websites; in the "
                + "Terminating namespace the test deleted %d ConfigMaps (the index among them), %d Deployments, %d "
                + "Services, then the Websites: gone %.2f s after their delete (their cleanup's refused create of the "
                + "index taken as done), reconciles refused meanwhile %d (retried, no Event: Events in the "
                + "namespace %d before, %d after); the namespace gone %.2f s after its delete (the namespace "
                + "controller's steps done by the test)%n", configMaps, deployments, services, websitesGone,
                Sites.failedReconciles(kit) - errors, events, eventsAfter, secondsSince(namespaceDeleted));
    }

    private String phase(String namespace) {
        Namespace found = client.namespaces().withName(namespace).get();
        return found == null || found.getStatus() == null ? null : found.getStatus().getPhase();
    }
}
