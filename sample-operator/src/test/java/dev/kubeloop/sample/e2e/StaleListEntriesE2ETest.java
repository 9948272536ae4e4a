package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.e2e.reconcilers.ServiceWithOneUnnamedPort;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * Issue 27 item 3 on a real API server, which merges lists by key as no embedded server does: a
 * Service's port edited with {@code kubectl patch} from 80 to 8080 is a new entry, the patcher's;
 * the operator's next apply of port 80 keeps it, and the API server refuses the merged Service with
 * 422 on every retry (two unnamed ports; two ports named {@code http} for the sample). Kubeloop
 * names the stale entry and who set it, and the ways out, in the Warning event; with
 * {@code ApplyOptions.removeStaleEntries()} it removes the entry and the apply goes through.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
@Import(ServiceWithOneUnnamedPort.Config.class)
class StaleListEntriesE2ETest {

    private static final String SELECTED = ServiceWithOneUnnamedPort.SELECTED;

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @BeforeEach
    void kubectl() {
        Kubectl.assumeInstalled();
    }

    @Test
    void anUnnamedPortEditedFrom80To8080IsRefusedAndTheEventNamesTheEntryItsManagerAndTheWayOut() {
        ConfigMap primary = client.resource(primary("plain", false)).create();
        kit.await("the Service", () -> ports("plain") != null);

        patchPortTo8080("plain");

        Event refused = kit.awaitEvent(primary, "Invalid");
        assertThat(refused.getType()).isEqualTo("Warning");
        assertThat(refused.getMessage()).contains("spec.ports[0].name: Required value",
                "merges spec.ports by key", "{\"port\":8080,\"protocol\":\"TCP\"} (set by kubectl-patch)",
                "kubectl edit", "ApplyOptions.defaults().removeStaleEntries()");
        assertThat(ports("plain")).as("the refused apply changed nothing").singleElement()
                .satisfies(port -> assertThat(port.getPort()).isEqualTo(8080));
    }

    @Test
    void withRemoveStaleEntriesThePatchersPortIsRemovedAndTheOperatorsPortApplied() {
        ConfigMap primary = client.resource(primary("repaired", true)).create();
        kit.await("the Service", () -> ports("repaired") != null);

        patchPortTo8080("repaired");

        kit.await("port 80 back, alone", () -> ports("repaired").size() == 1
                && ports("repaired").get(0).getPort() == 80);
        Event removed = kit.awaitEvent(primary, "StaleEntriesRemoved");
        assertThat(removed.getMessage()).contains("{\"port\":8080,\"protocol\":\"TCP\"}", "Service repaired");
        assertThat(kit.eventReasons(primary)).doesNotContain("Invalid");
    }

    @Test
    void theSamplesNamedPortEditedFrom80To8080IsRefusedAsADuplicateNameAndTheEventSaysWhy() {
        Website site = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "ported", "p")).create());

        patchPortTo8080("ported");

        Event refused = kit.awaitEvent(site, "Invalid");
        assertThat(refused.getMessage()).contains("Duplicate value: \"http\"",
                "{\"port\":8080,\"protocol\":\"TCP\"} (set by kubectl-patch)", "removeStaleEntries()");
    }

    private void patchPortTo8080(String service) {
        Kubectl.Run run = Kubectl.run("", "patch", "service", service, "--namespace", kit.namespace(), "--type=json",
                "-p", "[{\"op\":\"replace\",\"path\":\"/spec/ports/0/port\",\"value\":8080}]");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
    }

    private java.util.List<ServicePort> ports(String name) {
        Service service = client.services().inNamespace(kit.namespace()).withName(name).get();
        return service == null ? null : service.getSpec().getPorts();
    }

    private ConfigMap primary(String name, boolean removeStaleEntries) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(kit.namespace())
                .addToLabels(SELECTED, "true").endMetadata()
                .addToData("removeStaleEntries", String.valueOf(removeStaleEntries)).build();
    }
}
