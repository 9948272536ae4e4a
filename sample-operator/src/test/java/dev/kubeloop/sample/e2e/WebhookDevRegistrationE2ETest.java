package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.SampleOperatorApplication;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import dev.kubeloop.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The development loop on the real API server: the sample started as {@code spring-boot:run} would
 * start it against a cluster, with the one switch {@code kubeloop.webhook.dev-registration.enabled=true}
 * and no certificate, is called by the API server: a Website its validator refuses is refused with
 * the validator's message, and a Website written as v1alpha1 is converted by it. A registration a
 * killed run left behind (pointing at a dead port) is replaced at start; a graceful stop removes the
 * configurations and sets the CRD's conversion back to None. The test's own context runs without
 * webhooks ({@code @KubeloopTest} default), so every denial comes from the started process.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", properties = "sample.demo=off")
class WebhookDevRegistrationE2ETest {

    /** {@code kubeloop-dev-<spring.application.name>-<HOSTNAME>}, both set for the started process below. */
    private static final String REGISTRATION = "kubeloop-dev-devloop-e2e-e2e-box";
    private static final String CRD = "websites.sample.kubeloop.dev";
    private static final String DENIED = "admission webhook \"validate.websites.sample.kubeloop.dev\" denied the "
            + "request: spec.tls.secretName is required when spec.tls is set";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @AfterEach
    void removeLeftovers() {
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(REGISTRATION).delete();
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(REGISTRATION).delete();
    }

    @Test
    void theSwitchRegistersTheLocalProcessWhichDeniesAnInvalidWebsiteAndAStopRemovesTheRegistration() {
        // what a run killed with SIGKILL leaves: a registration of the same name pointing at nothing
        client.admissionRegistration().v1().validatingWebhookConfigurations().resource(
                new ValidatingWebhookConfigurationBuilder().withNewMetadata().withName(REGISTRATION).endMetadata()
                        .addNewWebhook().withName("validate.websites.sample.kubeloop.dev").withNewClientConfig()
                        .withUrl("https://127.0.0.1:1/validate-sample-kubeloop-dev-v1-website").endClientConfig()
                        .addNewRule().withApiGroups("sample.kubeloop.dev").withApiVersions("v1")
                        .withResources("websites").withOperations("CREATE").endRule().withFailurePolicy("Ignore")
                        .withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook().build()).create();

        try (KubernetesClient devClient = new KubernetesClientBuilder().withConfig(client.getConfiguration()).build()) {
            ConfigurableApplicationContext dev = new SpringApplicationBuilder(SampleOperatorApplication.class)
                    .main(SampleOperatorApplication.class).web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF)
                    .registerShutdownHook(false)
                    .properties("sample.demo=off", "kubeloop.namespaces=" + kit.namespace(),
                            "kubeloop.webhook.dev-registration.enabled=true", "kubeloop.webhook.port=0")
                    .initializers(c -> c.getBeanFactory().registerSingleton("kubernetesClient", devClient))
                    // arguments: above application.yaml and the environment's HOSTNAME, as the name is made from them
                    .run("--spring.application.name=devloop-e2e", "--HOSTNAME=e2e-box");
            int port;
            try {
                port = dev.getBean(WebhookServer.class).port();
                ValidatingWebhookConfiguration registered = client.admissionRegistration().v1()
                        .validatingWebhookConfigurations().withName(REGISTRATION).get();
                assertThat(registered.getMetadata().getLabels()).containsEntry("kubeloop.dev/dev-registration",
                        "e2e-box");
                assertThat(registered.getWebhooks()).singleElement().satisfies(webhook -> assertThat(
                        webhook.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:" + port
                                + "/validate-sample-kubeloop-dev-v1-website"));
                assertThat(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(REGISTRATION)
                        .get()).isNotNull();

                kit.await("the API server has the started process deny an invalid Website", DEADLINE,
                        () -> deniedByTheValidator(invalid("insecure")));
                assertThat(client.resources(Website.class).inNamespace(kit.namespace()).withName("insecure").get())
                        .isNull();

                var legacy = new dev.kubeloop.sample.website.v1alpha1.Website();
                legacy.getMetadata().setNamespace(kit.namespace());
                legacy.getMetadata().setName("legacy");
                legacy.getSpec().setHtml("<p>written as v1alpha1</p>");
                kit.await("the API server converts through the started process", DEADLINE, () -> {
                    try {
                        client.resource(legacy).createOr(existing -> existing.update());
                        return true;
                    } catch (KubernetesClientException e) {
                        return false;
                    }
                });
                assertThat(client.resources(Website.class).inNamespace(kit.namespace()).withName("legacy").get()
                        .getSpec().getPage()).isEqualTo("<p>written as v1alpha1</p>");
                client.resources(Website.class).inNamespace(kit.namespace()).withName("legacy").delete();
            } finally {
                dev.close(); // a graceful stop, as on Ctrl-C
            }
        }

        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(REGISTRATION).get())
                .as("validating configuration removed at stop").isNull();
        assertThat(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(REGISTRATION).get())
                .as("mutating configuration removed at stop").isNull();
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName(CRD).get().getSpec()
                .getConversion().getStrategy()).isEqualTo("None");
        Website allowed = client.resource(invalid("after-stop")).dryRun().create();
        assertThat(allowed.getMetadata().getName()).as("nothing calls the stopped process").isEqualTo("after-stop");
    }

    private Website invalid(String name) {
        Website site = Sites.website(kit.namespace(), name, "<p>secure</p>");
        site.getSpec().setTls(new WebsiteTls());
        return site;
    }

    private boolean deniedByTheValidator(Website site) {
        try {
            client.resource(site).create();
            client.resource(site).delete(); // not yet called: remove it and try again
            return false;
        } catch (KubernetesClientException e) {
            return e.getCode() == 403 && e.getMessage() != null && e.getMessage().contains(DENIED);
        }
    }
}
