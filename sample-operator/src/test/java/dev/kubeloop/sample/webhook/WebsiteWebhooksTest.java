package dev.kubeloop.sample.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteDefaulter;
import dev.kubeloop.sample.website.WebsiteSpec;
import dev.kubeloop.sample.website.WebsiteStatus;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.sample.website.WebsiteV1alpha1Conversion;
import dev.kubeloop.sample.website.WebsiteValidator;
import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.test.webhook.WebhookTester;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sample's webhooks through Kubeloop's real review handling, without TLS or an API server
 * ({@link WebhookTester}): the validator's rules, the defaulter's page, and v1alpha1 ⇄ v1.
 */
class WebsiteWebhooksTest {

    private final WebhookTester webhooks = WebhookTester.builder()
            .validator(Website.class, new WebsiteValidator())
            .defaulter(Website.class, new WebsiteDefaulter())
            .converter(Website.class, dev.kubeloop.sample.website.v1alpha1.Website.class,
                    new WebsiteV1alpha1Conversion())
            .build();

    static Website website(String name) {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName(name).build());
        site.setSpec(new WebsiteSpec());
        site.getSpec().setPage("<h1>" + name + "</h1>");
        return site;
    }

    @Test
    void aValidWebsiteIsAllowedAsItIs() {
        AdmissionResult<Website> result = webhooks.create(website("plain"));

        assertThat(result.allowed()).isTrue();
        assertThat(result.patch()).as("nothing to default").isNull();
        assertThat(result.object().getSpec().getPage()).isEqualTo("<h1>plain</h1>");
    }

    @Test
    void tlsWithoutASecretNameIsDenied() {
        Website site = website("secure");
        site.getSpec().setTls(new WebsiteTls());

        AdmissionResult<Website> result = webhooks.create(site);

        assertThat(result.allowed()).isFalse();
        assertThat(result.code()).isEqualTo(403);
        assertThat(result.message()).isEqualTo("spec.tls.secretName is required when spec.tls is set");

        site.getSpec().getTls().setSecretName("Not_A_Secret");
        assertThat(webhooks.create(site).message()).contains("\"Not_A_Secret\" is not a valid Secret name");
        site.getSpec().getTls().setSecretName("secure-tls");
        assertThat(webhooks.create(site).allowed()).isTrue();
    }

    @Test
    void moreThanOneReplicaNeedsAPinnedImage() {
        Website site = website("scaled");
        site.getSpec().setReplicas(3);
        site.getSpec().setImage("nginx:latest");

        assertThat(webhooks.create(site).message()).isEqualTo("spec.replicas 3 needs spec.image pinned to a version "
                + "(a tag other than latest, or a digest); \"nginx:latest\" is not: use 1 replica or pin it");
        site.getSpec().setImage("registry.example.com:5000/nginx");
        assertThat(webhooks.create(site).allowed()).as("a registry port is not a tag").isFalse();
        site.getSpec().setReplicas(1);
        assertThat(webhooks.create(site).allowed()).as("one replica of a moving tag is fine").isTrue();
        site.getSpec().setReplicas(3);
        site.getSpec().setImage("registry.example.com:5000/nginx:1.27");
        assertThat(webhooks.create(site).allowed()).isTrue();
        site.getSpec().setImage("nginx@sha256:" + "a".repeat(64));
        assertThat(webhooks.create(site).allowed()).isTrue();
    }

    @Test
    void aNameThatCannotNameTheServiceIsDeniedAtCreate() {
        for (String name : List.of("1site", "my.site", "a" + "-long".repeat(13) + "x")) {
            AdmissionResult<Website> result = webhooks.create(website(name));
            assertThat(result.code()).as(name).isEqualTo(422);
            assertThat(result.message()).as(name).startsWith("Website.sample.kubeloop.dev \"" + name
                    + "\" is invalid: metadata.name: Invalid value: \"" + name + "\": cannot name the site's Service");
        }
    }

    @Test
    void anImageThatDoesNotParseIsDeniedAndEveryViolationIsNamed() {
        Website site = website("broken");
        site.getSpec().setImage("nginx:::latest");
        site.getSpec().setTls(new WebsiteTls());

        assertThat(webhooks.create(site).message()).isEqualTo("spec.tls.secretName is required when spec.tls is set; "
                + "spec.image \"nginx:::latest\" is not a valid image reference");
    }

    @Test
    void updatesAreValidatedAndRemovingTlsWarns() {
        Website before = website("secure");
        before.getSpec().setTls(new WebsiteTls());
        before.getSpec().getTls().setSecretName("secure-tls");
        Website after = website("secure");

        AdmissionResult<Website> result = webhooks.update(before, after);

        assertThat(result.allowed()).isTrue();
        assertThat(result.warnings()).containsExactly(
                "spec.tls was removed: the site is served over HTTP only from now on");
        Website invalid = website("secure");
        invalid.getSpec().setTls(new WebsiteTls());
        assertThat(webhooks.update(before, invalid).allowed()).isFalse();
    }

    @Test
    void aLargePageIsAllowedWithAWarning() {
        Website site = website("big");
        site.getSpec().setPage("x".repeat(200 * 1024));

        AdmissionResult<Website> result = webhooks.create(site);

        assertThat(result.allowed()).isTrue();
        assertThat(result.warnings()).singleElement().asString().startsWith("spec.page is 204800 bytes");
    }

    @Test
    void anEmptyPageIsDefaultedToOneNamingTheSite() {
        Website site = website("blank");
        site.getSpec().setPage("");

        AdmissionResult<Website> result = webhooks.create(site);

        assertThat(result.allowed()).isTrue();
        assertThat(result.patch()).contains("\"op\":\"replace\"", "/spec/page");
        assertThat(result.object().getSpec().getPage())
                .isEqualTo("<h1>blank</h1><p>This site has no page yet: set spec.page.</p>");
        assertThat(webhooks.createDryRun(site).object().getSpec().getPage()).startsWith("<h1>blank</h1>");
    }

    @Test
    void aPageIsNeverReplacedByTheDefault() {
        AdmissionResult<Website> result = webhooks.update(website("kept"), website("kept"));

        assertThat(result.patch()).isNull();
    }

    @Test
    void v1alpha1sHtmlIsV1sPageAndBackWithoutLoss() {
        var old = new dev.kubeloop.sample.website.v1alpha1.Website();
        old.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("legacy").withUid("u-1")
                .addToLabels("team", "web").build());
        old.getSpec().setHtml("<p>legacy</p>");
        old.getSpec().setReplicas(2);
        old.getSpec().setImage("nginx:1.27");
        old.getSpec().setTls(new WebsiteTls());
        old.getSpec().getTls().setSecretName("legacy-tls");
        old.setStatus(new WebsiteStatus());
        old.getStatus().setObservedGeneration(4L);
        old.getStatus().getConditions().add(new ConditionBuilder().withType("Ready").withStatus("True").build());

        Website hub = webhooks.convert(old, Website.class);

        assertThat(hub.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1");
        assertThat(hub.getSpec().getPage()).isEqualTo("<p>legacy</p>");
        assertThat(hub.getSpec().getReplicas()).isEqualTo(2);
        assertThat(hub.getSpec().getTls().getSecretName()).isEqualTo("legacy-tls");
        assertThat(hub.getStatus().getObservedGeneration()).isEqualTo(4L);
        assertThat(hub.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(hub.getMetadata().getLabels()).containsEntry("team", "web");

        var back = webhooks.convert(hub, dev.kubeloop.sample.website.v1alpha1.Website.class);

        assertThat(back.getApiVersion()).isEqualTo("sample.kubeloop.dev/v1alpha1");
        assertThat(back.getSpec().getHtml()).isEqualTo("<p>legacy</p>");
        assertThat(back.getStatus()).isEqualTo(old.getStatus());
        assertThat(back.getMetadata()).isEqualTo(old.getMetadata());
    }
}
