package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteResources;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The sample's webhooks on the real API server, the full path: the operator's webhook server runs
 * on 127.0.0.1 with a certificate for 127.0.0.1 ({@code @KubeloopTest(webhooks = true)}), and the
 * kit registers it with {@code clientConfig.url} and the CA for the test namespace, and as the
 * Website CRD's conversion webhook. Shown: a Website the validator refuses is refused with its
 * message through fabric8 and kubectl; defaults are filled in on create; a Website written as
 * v1alpha1 reads as v1 and is stored as v1 (read from etcd), and back; a dry-run create runs the
 * webhooks and leaves nothing behind.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", webhooks = true,
        properties = "sample.demo=off")
class WebhookE2ETest {

    private static final String DENIED = "admission webhook \"validate.websites.sample.kubeloop.dev\" denied the "
            + "request: spec.tls.secretName is required when spec.tls is set";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    private static Website withoutSecretName(String namespace, String name) {
        Website site = Sites.website(namespace, name, "<p>secure</p>");
        site.getSpec().setTls(new WebsiteTls());
        return site;
    }

    /** The API server picks new webhook configurations up asynchronously: wait until it calls ours. */
    @BeforeEach
    void webhooksInEffect() {
        kit.await("the API server calls the validating webhook", () -> {
            try {
                client.resource(withoutSecretName(kit.namespace(), "probe")).dryRun().create();
                return false;
            } catch (KubernetesClientException e) {
                return e.getMessage() != null && e.getMessage().contains(DENIED);
            }
        });
        kit.await("the API server converts through the webhook", () -> {
            try {
                client.resources(dev.kubeloop.sample.website.v1alpha1.Website.class).inNamespace(kit.namespace())
                        .list();
                return client.apiextensions().v1().customResourceDefinitions().withName("websites.sample.kubeloop.dev")
                        .get().getSpec().getConversion().getStrategy().equals("Webhook");
            } catch (KubernetesClientException e) {
                return false;
            }
        });
    }

    @Test
    void anInvalidWebsiteIsRefusedWithTheValidatorsMessageThroughFabric8() {
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(withoutSecretName(kit.namespace(), "insecure")).create());

        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused.getMessage()).contains(DENIED);
        assertThat(client.resources(Website.class).withName("insecure").get()).isNull();
    }

    /** Issue 27 item 8: a denial with field errors is what the API server relays, 422 Invalid with its causes. */
    @Test
    void aDenialWithFieldErrorsReachesTheClientAs422InvalidWithTheFieldAndValue() {
        Website dotted = Sites.website(kit.namespace(), "www.example", "<p>hello</p>");

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(dotted).create());

        assertThat(refused).as("refused").isNotNull();
        System.out.println("field-error denial through the API server: " + refused.getCode() + " "
                + refused.getStatus().getReason() + " " + refused.getStatus().getMessage() + " causes "
                + refused.getStatus().getDetails());
        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getReason()).isEqualTo("Invalid");
        assertThat(refused.getStatus().getDetails().getCauses()).singleElement().satisfies(cause -> {
            assertThat(cause.getField()).isEqualTo("metadata.name");
            assertThat(cause.getReason()).isEqualTo("FieldValueInvalid");
            assertThat(cause.getMessage()).contains("www.example", "must be a DNS-1035 label");
        });
        assertThat(client.resources(Website.class).inNamespace(kit.namespace()).withName("www.example").get()).isNull();
    }

    @Test
    void kubectlShowsAFieldErrorDenialPerField() {
        Kubectl.assumeInstalled();
        String manifest = """
                apiVersion: sample.kubeloop.dev/v1
                kind: Website
                metadata:
                  name: www.example
                spec:
                  page: "<p>hello</p>"
                """;

        Kubectl.Run run = Kubectl.run(manifest, "apply", "-n", kit.namespace(), "-f", "-");

        System.out.println("kubectl on a field-error denial: " + run.stderr());
        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isNotZero();
        assertThat(run.stderr()).contains("is invalid", "metadata.name: Invalid value: \"www.example\"",
                "must be a DNS-1035 label");
    }

    @Test
    void anInvalidWebsiteIsRefusedWithTheValidatorsMessageThroughKubectl() {
        Kubectl.assumeInstalled();
        String manifest = """
                apiVersion: sample.kubeloop.dev/v1
                kind: Website
                metadata:
                  name: kubectl-insecure
                spec:
                  page: "<p>hello</p>"
                  tls: {}
                """;

        Kubectl.Run run = Kubectl.run(manifest, "apply", "-n", kit.namespace(), "-f", "-");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isNotZero();
        assertThat(run.stderr()).contains(DENIED);

        Kubectl.Run fixed = Kubectl.run(manifest.replace("tls: {}", "tls: {secretName: kubectl-tls}"), "apply", "-n",
                kit.namespace(), "-f", "-");
        assertThat(fixed.exitCode()).as(fixed.stderr()).isZero();
        assertThat(fixed.stdout()).contains("website.sample.kubeloop.dev/kubectl-insecure created");
    }

    @Test
    void kubectlShowsTheValidatorsWarningsAndTheOldVersionsDeprecation() {
        Kubectl.assumeInstalled();
        String manifest = """
                apiVersion: sample.kubeloop.dev/v1alpha1
                kind: Website
                metadata:
                  name: kubectl-legacy
                spec:
                  html: "%s"
                """.formatted("x".repeat(110 * 1024));

        Kubectl.Run run = Kubectl.run(manifest, "create", "-n", kit.namespace(), "-f", "-");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).contains("Warning: sample.kubeloop.dev/v1alpha1 Website is deprecated")
                .contains("Warning: spec.page is 112640 bytes");
    }

    @Test
    void defaultsAreFilledInOnCreate() {
        Website created = client.resource(Sites.website(kit.namespace(), "blank", "")).create();

        assertThat(created.getSpec().getPage()).isEqualTo("<h1>blank</h1><p>This site has no page yet: set spec.page.</p>");
        Website reconciled = kit.awaitReconciled(created);
        assertThat(kit.owned(reconciled, ConfigMap.class)).singleElement()
                .satisfies(page -> assertThat(page.getData().get("index.html")).startsWith("<h1>blank</h1>"));
    }

    @Test
    void aWebsiteWrittenAsV1alpha1ReadsAsV1AndIsStoredAsV1() {
        var legacy = new dev.kubeloop.sample.website.v1alpha1.Website();
        legacy.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName("legacy").build());
        legacy.getSpec().setHtml("<p>written as v1alpha1</p>");
        client.resource(legacy).create();

        Website asV1 = client.resources(Website.class).inNamespace(kit.namespace()).withName("legacy").get();

        assertThat(asV1.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1");
        assertThat(asV1.getSpec().getPage()).isEqualTo("<p>written as v1alpha1</p>");
        assertThat(storedJson("legacy")).contains("\"apiVersion\":\"sample.kubeloop.dev/v1\"")
                .contains("\"page\":\"\\u003cp\\u003ewritten as v1alpha1\\u003c/p\\u003e\"").doesNotContain("\"html\"");
        kit.awaitReconciled(asV1);
    }

    @Test
    void aWebsiteWrittenAsV1ReadsAsV1alpha1AndAnOldClientsUpdateLosesNothing() {
        Website site = Sites.website(kit.namespace(), "modern", "<p>v1</p>");
        site.getSpec().setTls(new WebsiteTls());
        site.getSpec().getTls().setSecretName("modern-tls");
        kit.awaitReconciled(client.resource(site).create()); // the operator's own writes are done: no 409 below

        var old = client.resources(dev.kubeloop.sample.website.v1alpha1.Website.class).inNamespace(kit.namespace())
                .withName("modern").get();
        assertThat(old.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1alpha1");
        assertThat(old.getSpec().getHtml()).isEqualTo("<p>v1</p>");
        assertThat(old.getSpec().getTls().getSecretName()).isEqualTo("modern-tls");

        old.getSpec().setHtml("<p>edited by an old client</p>");
        client.resource(old).update();

        Website after = client.resources(Website.class).inNamespace(kit.namespace()).withName("modern").get();
        assertThat(after.getSpec().getPage()).isEqualTo("<p>edited by an old client</p>");
        assertThat(after.getSpec().getTls().getSecretName()).isEqualTo("modern-tls");
        assertThat(storedJson("modern")).contains("\"apiVersion\":\"sample.kubeloop.dev/v1\"");
    }

    @Test
    void aDryRunCreateIsDefaultedAndValidatedAndLeavesNothingBehind() {
        Website dryRun = client.resource(Sites.website(kit.namespace(), "dry", "")).dryRun().create();

        assertThat(dryRun.getSpec().getPage()).startsWith("<h1>dry</h1>");
        assertThat(client.resources(Website.class).inNamespace(kit.namespace()).withName("dry").get()).isNull();
        kit.awaitIdle();
        assertThat(kit.controller("website").state(new ObjectKey(kit.namespace(), "dry"))).isEqualTo(ItemState.ABSENT);
        assertThat(client.configMaps().inNamespace(kit.namespace()).withName(WebsiteResources.contentName(dryRun)).get())
                .isNull();
    }

    /** The object as etcd holds it (custom resources are stored as JSON), when the API server is the script's. */
    private String storedJson(String name) {
        LocalApiServer server = LocalApiServer.assumeUnderTest();
        return server.etcdGet("/registry/sample.kubeloop.dev/websites/" + kit.namespace() + "/" + name);
    }
}
