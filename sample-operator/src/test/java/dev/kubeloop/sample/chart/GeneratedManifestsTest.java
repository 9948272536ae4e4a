package dev.kubeloop.sample.chart;

import static dev.kubeloop.test.chart.GeneratedRbac.grants;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.manifests.ManifestsDescriber;
import dev.kubeloop.sample.SampleOperatorApplication;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteDefaulter;
import dev.kubeloop.sample.website.WebsiteV1alpha1Conversion;
import dev.kubeloop.sample.website.WebsiteValidator;
import dev.kubeloop.test.chart.GeneratedRbac;
import dev.kubeloop.webhook.WebhookConfigurations;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The chart's RBAC and webhook registrations are the ones generated from the operator's code
 * ({@code kubeloop:manifests} writes helm/sample-operator/files/kubeloop at process-classes), and the
 * test kit registers the webhooks exactly as the chart does.
 */
class GeneratedManifestsTest {

    private static final Path FILES = RenderedChart.CHART.resolve("files").resolve("kubeloop");
    private static final KubernetesSerialization YAML = new KubernetesSerialization();
    private static final GeneratedRbac RBAC = GeneratedRbac.read(FILES.resolve("rbac.yaml"));

    /** A stale committed file (the goal skipped, or edited by hand) fails here, naming the file. */
    @Test
    void theChartsFilesAreWhatTheCodeDeclares() throws Exception {
        Map<String, String> described = ManifestsDescriber.describe(SampleOperatorApplication.class,
                Map.of("sample.demo", "off"), Map.of("tlsSecrets", Map.of("sample.tls-secrets.watch", "true")));
        assertThat(described).containsOnlyKeys("rbac.yaml", "webhooks.yaml");
        for (Map.Entry<String, String> file : described.entrySet()) {
            assertThat(Files.readString(FILES.resolve(file.getKey())))
                    .as("helm/sample-operator/files/kubeloop/%s is not what the code declares: ./mvnw process-classes "
                            + "writes it", file.getKey()).isEqualTo(file.getValue());
        }
    }

    /** Each value that switches access on adds its option's rules, and nothing else reaches the Role. */
    @ParameterizedTest
    @ValueSource(strings = {"defaults", "tlsSecrets.watch", "sharding.enabled", "watchAllNamespaces"})
    void theRenderedWorkloadRulesAreTheGeneratedOnes(String value) {
        Map<String, Object> values = switch (value) {
            case "defaults" -> Map.of();
            case "sharding.enabled" -> Map.of("sharding.enabled", "true", "replicaCount", "2");
            default -> Map.of(value, "true");
        };
        RenderedChart chart = RenderedChart.render(values);
        List<PolicyRule> rendered = value.equals("watchAllNamespaces") ? chart.one(ClusterRole.class).getRules()
                : chart.all(Role.class).stream().filter(role -> role.getMetadata().getName().equals("kl-sample-operator"))
                        .findFirst().orElseThrow().getRules();
        List<String> options = new ArrayList<>();
        options.add(value.equals("sharding.enabled") ? "sharding" : "leaderElection");
        if (value.equals("tlsSecrets.watch")) {
            options.add("tlsSecrets");
        }
        assertThat(grants(rendered)).isEqualTo(grants(RBAC.workload(options.toArray(String[]::new))));
        assertThat(grants(rendered)).as("pruning deletes the <name>-tls ConfigMap; nothing else is deleted")
                .filteredOn(grant -> grant.contains("delete")).containsExactly("/configmaps: [get, list, watch, create, patch, delete]");
    }

    @Test
    void theLeaseRolesAreTheGeneratedOnes() {
        Role elected = RenderedChart.render(Map.of()).all(Role.class).stream()
                .filter(role -> role.getMetadata().getName().endsWith("-leader-election")).findFirst().orElseThrow();
        assertThat(grants(elected.getRules())).isEqualTo(grants(RBAC.releaseNamespace("leaderElection")));
        Role ring = RenderedChart.render(Map.of("sharding.enabled", "true", "replicaCount", "2")).all(Role.class)
                .stream().filter(role -> role.getMetadata().getName().endsWith("-sharding")).findFirst().orElseThrow();
        assertThat(grants(ring.getRules())).isEqualTo(grants(RBAC.releaseNamespace("sharding")));
    }

    /** What a test on a real API server registers (the kit) is what the chart installs. */
    @Test
    void theKitRegistersTheWebhooksAsTheChartDoes() {
        Webhooks webhooks = Webhooks.builder(YAML).validator(Website.class, new WebsiteValidator())
                .defaulter(Website.class, new WebsiteDefaulter())
                .converter(Website.class, dev.kubeloop.sample.website.v1alpha1.Website.class,
                        new WebsiteV1alpha1Conversion())
                .build();
        WebhookConfigurations kit = WebhookConfigurations.of(webhooks, new WebhookConfigurations.Target("kit",
                Map.of(), "https://127.0.0.1:9443", "", Map.of(), "Fail", 10));
        RenderedChart chart = RenderedChart.render(Map.of());
        ValidatingWebhookConfiguration validating = chart.one(ValidatingWebhookConfiguration.class);
        MutatingWebhookConfiguration mutating = chart.one(MutatingWebhookConfiguration.class);

        assertThat(validating.getWebhooks()).extracting(hook -> hook.getName() + " " + hook.getClientConfig()
                .getService().getPath() + " " + rules(hook.getRules()))
                .containsExactlyElementsOf(kit.validating().orElseThrow().getWebhooks().stream().map(hook -> hook.getName()
                        + " " + hook.getClientConfig().getUrl().substring("https://127.0.0.1:9443".length()) + " "
                        + rules(hook.getRules())).toList())
                .singleElement().asString().startsWith("validate.websites.sample.kubeloop.dev ")
                .doesNotContain("DELETE"); // validation never blocks a deletion
        assertThat(mutating.getWebhooks()).extracting(hook -> hook.getName() + " " + hook.getClientConfig()
                .getService().getPath() + " " + rules(hook.getRules()))
                .containsExactlyElementsOf(kit.mutating().orElseThrow().getWebhooks().stream().map(hook -> hook.getName()
                        + " " + hook.getClientConfig().getUrl().substring("https://127.0.0.1:9443".length()) + " "
                        + rules(hook.getRules())).toList());
        CustomResourceDefinition crd = chart.one(CustomResourceDefinition.class);
        assertThat(kit.conversions()).singleElement().satisfies(conversion -> {
            assertThat(conversion.crd()).isEqualTo(crd.getMetadata().getName());
            assertThat(conversion.patch()).contains("https://127.0.0.1:9443"
                    + crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath() + "\"");
        });
    }

    private static String rules(List<RuleWithOperations> rules) {
        return rules.stream().map(rule -> rule.getApiGroups() + rule.getApiVersions().toString() + rule.getResources()
                + rule.getOperations() + rule.getScope()).toList().toString();
    }
}
