package dev.kubeloop.sample.e2e;

import static dev.kubeloop.sample.e2e.Polls.secondsSince;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 26 item 6 on a real API server: a Website named like a user's Service and ConfigMap took
 * both over with a forced apply (the Service's selector changed, both got an owner reference).
 * Now the operator sends them nothing: their resourceVersions stay, and managedFields show that the
 * operator's field manager never wrote them. An object the operator's field manager did apply
 * (before its kind was owned, say) is taken back, as managedFields prove, which only the real
 * server keeps.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class ForeignObjectE2ETest {

    private static final String MANAGER = "website";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @BeforeEach
    void kubectl() {
        Kubectl.assumeInstalled();
    }

    @Test
    void aUsersServiceAndConfigMapNamedLikeAWebsiteAreNeitherChangedNorOwned() {
        kubectl("""
                apiVersion: v1
                kind: Service
                metadata:
                  name: payments
                spec:
                  selector:
                    app: payments-db
                  ports:
                  - port: 5432
                """, "create", "-f", "-");
        Website wanted = Sites.website(kit.namespace(), "payments", "<h1>pay</h1>");
        String contentName = WebsiteResources.contentName(wanted); // the page's ConfigMap is named by the page
        kubectl("", "create", "configmap", contentName, "--from-literal=settings=theirs");
        Service database = client.services().inNamespace(kit.namespace()).withName("payments").get();
        ConfigMap settings = client.configMaps().inNamespace(kit.namespace()).withName(contentName).get();

        long created = System.nanoTime();
        Website site = client.resource(wanted).create();

        kit.await("the Website names the ConfigMap in its way", () -> blockedBy(site, "ConfigMap " + contentName));
        double configMapNamed = secondsSince(created);
        assertThat(kit.awaitEvent(site, "ForeignObject").getType()).isEqualTo("Warning");
        assertUntouched(settings);
        assertThat(client.configMaps().inNamespace(kit.namespace()).withName(contentName).get().getData())
                .containsExactly(Map.entry("settings", "theirs"));

        long configMapDeleted = System.nanoTime();
        kubectl("", "delete", "configmap", contentName); // queues the Website at once: it was in its way

        kit.await("the Website names the Service in its way", () -> blockedBy(site, "Service payments"));
        double serviceNamed = secondsSince(configMapDeleted);
        assertUntouched(database);
        Service untouched = client.services().inNamespace(kit.namespace()).withName("payments").get();
        assertThat(untouched.getSpec().getSelector()).as("the database keeps its endpoints")
                .containsExactly(Map.entry("app", "payments-db"));
        // Events are written in the background: the status can name the Service before its Event is stored
        kit.await("a ForeignObject event for each object in the way", () -> inTheWay(site).size() >= 2);
        assertThat(inTheWay(site)).containsExactlyInAnyOrder("ConfigMap " + contentName, "Service payments");
        System.out.printf(Locale.ROOT, "[reliability] colliding-names: a user's Service and ConfigMap (kubectl create) "
                + "named like Website payments: 2 takeovers refused (resourceVersions unchanged, no owner reference, "
                + "no managedFields entry of the operator), ForeignObject Warning events for %s; Ready named the "
                + "ConfigMap %.2f s after the Website's create, the Service %.2f s after the ConfigMap's delete "
                + "(kubectl, process start included)%n", inTheWay(site), configMapNamed, serviceNamed);
    }

    /** What the Website's ForeignObject events name, e.g. {@code Service payments}. */
    private List<String> inTheWay(Website site) {
        return kit.events(site).stream().filter(e -> "ForeignObject".equals(e.getReason()))
                .map(e -> e.getMessage().substring(0, e.getMessage().indexOf(" exists"))).toList();
    }

    /** An earlier version of the reconciler applied the ConfigMap without owning it: the field manager proves it its own. */
    @Test
    void anObjectTheOperatorsFieldManagerAppliedIsTakenBack() {
        Website wanted = Sites.website(kit.namespace(), "legacy", "after");
        String contentName = WebsiteResources.contentName(wanted);
        kubectl("""
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                data:
                  index.html: before
                """.formatted(contentName), "apply", "--server-side", "--field-manager=" + MANAGER, "-f", "-");

        long created = System.nanoTime();
        Website site = kit.awaitReconciled(client.resource(wanted).create());
        double reconciled = secondsSince(created);

        ConfigMap content = client.configMaps().inNamespace(kit.namespace()).withName(contentName).get();
        assertThat(content.getData()).containsEntry("index.html", "after");
        assertThat(content.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                .containsExactly(site.getMetadata().getUid());
        assertThat(kit.awaitEvent(site, "Adopted").getMessage())
                .isEqualTo("Adopted ConfigMap " + contentName + ": this controller applied it before, and its owner "
                        + "reference had been removed");
        System.out.printf(Locale.ROOT, "[reliability] colliding-names adopted: a ConfigMap that the operator's field "
                + "manager applied before (kubectl apply --server-side --field-manager=%s), without owner reference: "
                + "taken back (data, owner reference, Adopted event) by the Website's reconcile, reconciled %.2f s "
                + "after its create%n", MANAGER, reconciled);
    }

    /** As the user made it: the same resourceVersion, no owner reference, nothing written by the operator's manager. */
    private void assertUntouched(HasMetadata before) {
        HasMetadata now = client.resource(before).get();
        assertThat(now.getMetadata().getResourceVersion()).as("written since created")
                .isEqualTo(before.getMetadata().getResourceVersion());
        assertThat(now.getMetadata().getOwnerReferences()).isEmpty();
        assertThat(now.getMetadata().getManagedFields()).isNotEmpty().extracting(ManagedFieldsEntry::getManager)
                .doesNotContain(MANAGER);
    }

    private boolean blockedBy(Website site, String object) {
        Website latest = client.resource(site).get();
        Condition ready = latest.getStatus() == null ? null : latest.getStatus().condition("Ready").orElse(null);
        return ready != null && "ForeignObject".equals(ready.getReason()) && ready.getMessage().startsWith(object
                + " exists");
    }

    private void kubectl(String stdin, String... arguments) {
        String[] inNamespace = new String[arguments.length + 2];
        System.arraycopy(arguments, 0, inNamespace, 0, arguments.length);
        inNamespace[arguments.length] = "--namespace";
        inNamespace[arguments.length + 1] = kit.namespace();
        Kubectl.Run run = Kubectl.run(stdin, inNamespace);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
    }
}
