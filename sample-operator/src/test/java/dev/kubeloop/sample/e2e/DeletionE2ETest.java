package dev.kubeloop.sample.e2e;

import static dev.kubeloop.sample.e2e.Polls.secondsSince;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import dev.kubeloop.test.webhook.ClusterWebhooks;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Objects nobody can create today are still deleted, on the real API server with the sample's
 * webhooks registered ({@code @KubeloopTest(webhooks = true)}: validating on create, update and
 * delete). They are stored while the webhooks are off for the test namespace (its selector label
 * removed), as after an upgrade to a stricter validator, or with {@code failurePolicy: Ignore}.
 *
 * <p>Before: the finalizer's removal is an update, and the validator judged the whole spec again
 * (403: "spec.tls.secretName is required"), so the Website, its namespace and the CRD could never
 * be deleted, even by an admin removing the finalizer by hand; and a 253-character name made
 * cleanup's field manager too long for the API server ("fieldManager: Too long").
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", webhooks = true,
        properties = "sample.demo=off")
class DeletionE2ETest {

    private static final String DENIED = "spec.tls.secretName is required when spec.tls is set";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @AfterEach
    void webhooksBackOn() {
        webhooks(true);
    }

    @Test
    void aWebsiteInvalidUnderTodaysRulesIsDeletedCompletely() {
        webhooks(false);
        Website site = kit.awaitReconciled(client.resource(withoutSecretName("stored-before")).create());
        assertThat(site.getMetadata().getFinalizers()).contains("website.kubeloop.dev/finalizer");
        assertThat(Sites.index(client, kit.namespace())).containsKey("stored-before");
        webhooks(true);

        long errors = Sites.failedReconciles(kit);
        long deleted = System.nanoTime();
        client.resource(site).delete();

        kit.await("the Website is gone", DEADLINE, () -> client.resource(site).get() == null);
        double gone = secondsSince(deleted);
        assertThat(Sites.index(client, kit.namespace())).doesNotContainKey("stored-before");
        System.out.printf(Locale.ROOT, "[reliability] odd-states invalid-under-todays-rules: 1 Website stored with "
                + "the webhooks off (served: the finalizer, an index entry, its owned objects), deleted with them on: "
                + "gone %.2f s after the delete, its index entry removed; failed reconciles meanwhile %d (the finalizer's "
                + "removal passed the validator)%n", gone, Sites.failedReconciles(kit) - errors);
    }

    @Test
    void anAdminRemovesAFinalizerOfAnInvalidWebsiteByHand() {
        long deleted = System.nanoTime();
        Website site = heldInvalidBeingDeleted("held");
        kit.await("the operator's cleanup is done", DEADLINE, () -> List.of("example.com/hold")
                .equals(client.resource(site).get().getMetadata().getFinalizers()));
        double cleanedUp = secondsSince(deleted);

        // kubectl patch website held --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]'
        long patched = System.nanoTime();
        client.resources(Website.class).inNamespace(kit.namespace()).withName("held")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers/0\"}]");

        kit.await("the Website is gone", () -> client.resource(site).get() == null);
        System.out.printf(Locale.ROOT, "[reliability] odd-states finalizer-removed-by-hand: 1 Website invalid today "
                + "with someone else's finalizer, deleted: the operator's cleanup done %.2f s after the delete; the "
                + "admin's JSON patch removing the other finalizer accepted (not refused by the validator), gone "
                + "%.2f s after it%n", cleanedUp, secondsSince(patched));
    }

    @Test
    void anEditOfTheSpecOfAWebsiteBeingDeletedIsStillValidated() {
        Website site = heldInvalidBeingDeleted("edited");

        KubernetesClientException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                KubernetesClientException.class, () -> client.resources(Website.class).inNamespace(kit.namespace())
                        .withName("edited").patch(PatchContext.of(PatchType.JSON_MERGE),
                                "{\"spec\":{\"page\":\"<p>edited while being deleted</p>\"}}"));

        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused.getMessage()).contains(DENIED);
        System.out.printf(Locale.ROOT, "[reliability] odd-states spec-edit-while-deleted: 1 Website invalid today, "
                + "being deleted: a spec edit refused %d by the validator (\"%s\")%n", refused.getCode(), DENIED);
        client.resources(Website.class).inNamespace(kit.namespace()).withName("edited").patch(
                PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
        kit.await("the Website is gone", () -> client.resource(site).get() == null);
    }

    /**
     * Names at the limits: 253 characters (the most the API server accepts for a custom resource,
     * refused at create by the validator, which needs a DNS-1035 label of 63 for the Service),
     * and 63, the longest the sample serves.
     */
    @Test
    void websitesWithNamesAtTheLimitsAreDeletedCompletely() {
        String longest = "a".repeat(253);
        String longestServed = "s" + "x".repeat(62);
        webhooks(false);
        Website invalid = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), longest, "<p>x</p>"))
                .create());
        webhooks(true);
        Website served = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), longestServed, "<p>y</p>"))
                .create());
        assertThat(kit.owned(served, Service.class)).singleElement()
                .satisfies(service -> assertThat(service.getMetadata().getName()).hasSize(63));
        assertThat(Sites.index(client, kit.namespace())).containsKey(longestServed).doesNotContainKey(longest);

        long errors = Sites.failedReconciles(kit);
        long deleted = System.nanoTime();
        client.resource(invalid).delete();
        client.resource(served).delete();

        kit.await("both Websites are gone", DEADLINE,
                () -> client.resource(invalid).get() == null && client.resource(served).get() == null);
        System.out.printf(Locale.ROOT, "[reliability] odd-states names-at-the-limits: 2 Websites named with %d "
                + "(never served: InvalidSpec) and %d characters (served: owned objects, an index entry), deleted: "
                + "both gone %.2f s after the delete; failed reconciles meanwhile %d%n", longest.length(),
                longestServed.length(), secondsSince(deleted), Sites.failedReconciles(kit) - errors);
        assertThat(Sites.index(client, kit.namespace())).doesNotContainKeys(longest, longestServed);
    }


    /**
     * A Website stored while the webhooks were off, invalid today, with a finalizer of someone
     * else's ({@code example.com/hold}) besides the operator's, then deleted with the webhooks on.
     */
    private Website heldInvalidBeingDeleted(String name) {
        webhooks(false);
        Website held = withoutSecretName(name);
        held.getMetadata().setFinalizers(List.of("example.com/hold"));
        Website site = kit.awaitReconciled(client.resource(held).create());
        webhooks(true);
        client.resource(site).delete();
        return site;
    }

    private Website withoutSecretName(String name) {
        Website site = Sites.website(kit.namespace(), name, "<p>" + name + "</p>");
        site.getSpec().setTls(new WebsiteTls());
        return site;
    }

    /**
     * Switches the webhooks on or off for the test namespace (its selector label), and waits until
     * the API server acts on it: a dry-run create the validator refuses is refused, or not.
     */
    private void webhooks(boolean on) {
        client.namespaces().withName(kit.namespace()).edit(namespace -> {
            Map<String, String> labels = new HashMap<>(namespace.getMetadata().getLabels());
            if (on) {
                labels.put(ClusterWebhooks.NAMESPACE_LABEL, kit.namespace());
            } else {
                labels.remove(ClusterWebhooks.NAMESPACE_LABEL);
            }
            namespace.getMetadata().setLabels(labels);
            return namespace;
        });
        kit.await("the webhooks are " + (on ? "on" : "off"), () -> {
            try {
                client.resource(withoutSecretName("probe")).dryRun().create();
                return !on;
            } catch (KubernetesClientException e) {
                return on && e.getMessage() != null && e.getMessage().contains(DENIED);
            }
        });
    }
}
