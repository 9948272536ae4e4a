#if ($namespaced == 'true')
#set( $scope = 'Namespaced' )
#else
#set( $scope = 'Cluster' )
#end
package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import dev.kubeloop.test.chart.GeneratedRbac;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
#if ($webhooks == 'true')
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
#end
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart as {@code helm template} renders it (Helm's own engine, through helm-java): what
 * the cluster will be given. The chart reads the CRDs the build copied into {@code chart/files/} (one
 * kind or many), and the RBAC rules and webhooks the build generated from the code into
 * {@code chart/files/kubeloop/}.
 */
class HelmChartTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final Path CHART = Path.of("chart");

    @Test
    void theChartLintsStrictly() {
        LintResult result = new Helm(Path.of("chart")).lint().strict().call();

        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void theOperatorRunsUnderPodSecurityRestrictedWithProbesOnTheActuatorGroups() {
        Deployment deployment = single(render(Map.of()), Deployment.class);

        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        Container operator = pod.getContainers().get(0);
        assertThat(operator.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(operator.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(operator.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(operator.getEnv()).anySatisfy(env -> {
            assertThat(env.getName()).isEqualTo("KUBELOOP_LEADER_ELECTION_ENABLED");
            assertThat(env.getValue()).isEqualTo("true");
        });
    }

    @Test
    void theRbacIsExactlyWhatTheCodeDeclares() throws IOException {
        List<HasMetadata> objects = render(Map.of());
        List<CustomResourceDefinition> crds = all(objects, CustomResourceDefinition.class);
        // every kind the build generated (kubeloop:create-api adds kinds), the ${kind} among them
        assertThat(crds).extracting(crd -> crd.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(generatedCrds(CHART).stream().map(crd -> crd.getMetadata().getName()).toList())
                .contains(${kind}.PLURAL + "." + ${kind}.GROUP);
        assertThat(crds).filteredOn(crd -> crd.getSpec().getNames().getKind().equals("${kind}"))
                .singleElement().satisfies(crd -> assertThat(crd.getSpec().getScope()).isEqualTo("${scope}"));
        List<String> granted = new ArrayList<>(List.of("events"));
        crds.forEach(crd -> granted.addAll(subresources(crd.getSpec().getNames().getPlural())));

#if ($namespaced == 'true')
        // by default the release namespace only: a Role there, nothing cluster-wide
        assertThat(kinds(objects)).doesNotContain("ClusterRole", "ClusterRoleBinding");
        List<PolicyRule> rules = workloadRole(objects).getRules();
        assertThat(workloadRole(objects).getMetadata().getNamespace()).isEqualTo("operators");
        assertThat(env(objects)).containsEntry("KUBELOOP_NAMESPACES", "operators");
#else
        List<PolicyRule> rules = single(objects, ClusterRole.class).getRules();
#end
        // the custom resources, their status and finalizers, and events; then what the reconcilers own, delete and watch
        assertThat(rules).flatExtracting(PolicyRule::getResources).containsAll(granted);
        assertThat(rules).flatExtracting(PolicyRule::getVerbs).doesNotContain("*");
        // exactly the rules kubeloop:manifests generated from the code (chart/files/kubeloop/rbac.yaml): delete only
        // where @Reconciler(deletes) says, an owns = Deployment.class granted with the next build, nothing by hand
        GeneratedRbac generated = GeneratedRbac.read(Path.of("chart", "files", "kubeloop", "rbac.yaml"));
        assertThat(GeneratedRbac.grants(rules)).isEqualTo(GeneratedRbac.grants(generated.workload("leaderElection")));
    }

    @Test
    void aSecondKindInFilesIsInstalledAndGivenItsWorkersButGrantedOnlyWhatTheCodeNeeds(@TempDir Path temp) throws IOException {
        Path chart = copyOfTheChart(temp);
        CustomResourceDefinition second = generatedCrds(CHART).get(0);
        second.getSpec().getNames().setKind("Other${kind}");
        second.getSpec().getNames().setPlural("other${plural}");
        second.getSpec().getNames().setSingular("other${kind.toLowerCase()}");
        second.getSpec().getNames().setShortNames(List.of());
        second.getMetadata().setName("other${plural}." + second.getSpec().getGroup());
        Files.writeString(chart.resolve("files/other${plural}." + second.getSpec().getGroup() + "-v1.yml"),
                SERIALIZATION.asYaml(second));

        List<HasMetadata> objects = render(chart, Map.of());

        assertThat(all(objects, CustomResourceDefinition.class)).extracting(crd -> crd.getSpec().getNames().getKind())
                .contains("${kind}", "Other${kind}");
        // RBAC comes from the code (files/kubeloop/rbac.yaml, kubeloop:manifests), not from the CRDs: a kind no
        // reconciler declares is granted nothing until its reconciler exists (kubeloop:create-api writes one)
        assertThat(objects).filteredOn(object -> object instanceof Role || object instanceof ClusterRole)
                .filteredOn(role -> !role.getMetadata().getName().endsWith("-leader-election"))
                .singleElement().satisfies(role -> assertThat(rulesOf(role)).flatExtracting(PolicyRule::getResources)
                        .containsAll(subresources(${kind}.PLURAL)).doesNotContainAnyElementsOf(subresources("other${plural}")));
        assertThat(env(objects)).containsKeys("KUBELOOP_RECONCILERS_${kind.toUpperCase()}_WORKERS",
                "KUBELOOP_RECONCILERS_OTHER${kind.toUpperCase()}_WORKERS");
    }

    @Test
    void anUnbuiltChartSaysToBuildTheProject(@TempDir Path temp) throws IOException {
        Path chart = copyOfTheChart(temp);
        try (Stream<Path> crds = Files.list(chart.resolve("files"))) {
            for (Path crd : crds.filter(Files::isRegularFile).toList()) {
                Files.delete(crd); // the CRDs; files/kubeloop/ (the generated rules) stays
            }
        }

        assertThatThrownBy(() -> render(chart, Map.of()))
                .hasMessageContaining("files/ holds no CRD: build the project (./mvnw compile)");
    }

    @Test
    void shardingReplacesLeaderElectionWithARingOfLeasesEachReplicaMayDeleteItsOwnIn() {
        List<HasMetadata> objects = render(Map.of("sharding.enabled", "true", "replicaCount", "3"));

        Map<String, String> env = new HashMap<>();
        single(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .forEach(variable -> env.put(variable.getName(), variable.getValue()));
        assertThat(env).containsEntry("KUBELOOP_SHARDING_ENABLED", "true")
                .containsEntry("KUBELOOP_LEADER_ELECTION_ENABLED", "false")
                .containsEntry("KUBELOOP_SHARDING_NAMESPACE", "operators")
                .containsEntry("KUBELOOP_SHARDING_BUCKETS", "32")
                .containsEntry("KUBELOOP_SHARDING_LEASE_DURATION", "15s");
        Role ring = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(role -> role.getMetadata().getName().endsWith("-sharding")).findFirst().orElseThrow();
        assertThat(ring.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("leases");
            assertThat(rule.getVerbs()).contains("create", "update", "delete");
        });
        // the slot label the framework writes on each custom resource is a patch (the generated option
        // sharding adds it: the reconciler is no Cleaner, so without sharding it never patches its primary)
#if ($namespaced == 'true')
        assertThat(workloadRole(objects).getRules())
#else
        assertThat(single(objects, ClusterRole.class).getRules())
#end
                .filteredOn(rule -> rule.getResources().contains(${kind}.PLURAL))
                .anySatisfy(rule -> assertThat(rule.getVerbs()).contains("patch"));
    }

    @Test
    void shardingRefusesValuesThatWouldLeaveAReplicaIdleOrFenceItselfNamingTheValue() {
        assertThatThrownBy(() -> render(Map.of("sharding.enabled", "true", "replicaCount", "5", "sharding.buckets", "4")))
                .hasMessageContaining("sharding.buckets must be at least replicaCount");
        assertThatThrownBy(() -> render(Map.of("sharding.enabled", "true", "sharding.renewDeadlineSeconds", "3")))
                .hasMessageContaining("sharding.renewDeadlineSeconds must be at least 2");
        assertThatThrownBy(() -> render(Map.of("leaderElection.enabled", "false", "replicaCount", "2")))
                .hasMessageContaining("leaderElection.enabled=true or sharding.enabled=true");
    }

#if ($namespaced == 'true')
    @Test
    void watchNamespacesGrantsARolePerNamespaceAndNothingClusterWide() {
        List<HasMetadata> objects = render(Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        assertThat(kinds(objects)).doesNotContain("ClusterRole", "ClusterRoleBinding");
        List<Role> workload = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(role -> !role.getMetadata().getName().endsWith("-leader-election")).toList();
        assertThat(workload).extracting(role -> role.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("team-a", "team-b");
        assertThat(workload).allSatisfy(role -> assertThat(role.getRules()).flatExtracting(PolicyRule::getResources)
                .contains(${kind}.PLURAL, "events"));
        assertThat(objects.stream().filter(RoleBinding.class::isInstance).map(RoleBinding.class::cast)
                .filter(binding -> !binding.getMetadata().getName().endsWith("-leader-election")))
                .extracting(binding -> binding.getMetadata().getNamespace())
                .containsExactlyInAnyOrder("team-a", "team-b");
        assertThat(single(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anySatisfy(env -> {
                    assertThat(env.getName()).isEqualTo("KUBELOOP_NAMESPACES");
                    assertThat(env.getValue()).isEqualTo("team-a,team-b");
                });
    }

    @Test
    void watchAllNamespacesIsTheExplicitWayToAClusterRole() {
        List<HasMetadata> objects = render(Map.of("watchAllNamespaces", "true"));

        assertThat(single(objects, ClusterRole.class).getRules()).flatExtracting(PolicyRule::getResources)
                .contains(${kind}.PLURAL, "events");
        assertThat(env(objects)).doesNotContainKey("KUBELOOP_NAMESPACES");
        assertThatThrownBy(() -> render(Map.of("watchAllNamespaces", "true", "watchNamespaces[0]", "team-a")))
                .hasMessageContaining("watchAllNamespaces and watchNamespaces");
    }

    private static Role workloadRole(List<HasMetadata> objects) {
        List<Role> workload = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(role -> !role.getMetadata().getName().endsWith("-leader-election")
                        && !role.getMetadata().getName().endsWith("-sharding")).toList();
        assertThat(workload).hasSize(1);
        return workload.get(0);
    }
#else
    @Test
    void watchNamespacesIsRefusedForAClusterScopedResource() {
        assertThatThrownBy(() -> render(Map.of("watchNamespaces[0]", "team-a")))
                .hasMessageContaining("watchNamespaces is for namespaced resources");
    }
#end

    @Test
    void monitoringIsSwitchedOnByValues() {
        assertThat(kinds(render(Map.of()))).doesNotContain("ServiceMonitor", "PrometheusRule");
        assertThat(kinds(render(Map.of("metrics.serviceMonitor.enabled", "true",
                "metrics.prometheusRule.enabled", "true")))).contains("ServiceMonitor", "PrometheusRule");
    }
#if ($webhooks == 'true')

    @Test
    void theWebhookConfigurationsCallThePathsKubeloopServesWithTheGeneratedCertificate() throws IOException {
        List<HasMetadata> objects = render(Map.of());
        String path = "-" + ${kind}.GROUP.replace('.', '-') + "-" + ${kind}.VERSION + "-" + "${kind.toLowerCase()}";
        List<ValidatingWebhook> validating = all(objects, ValidatingWebhookConfiguration.class).stream()
                .flatMap(configuration -> configuration.getWebhooks().stream()).toList();
        List<MutatingWebhook> mutating = all(objects, MutatingWebhookConfiguration.class).stream()
                .flatMap(configuration -> configuration.getWebhooks().stream()).toList();

        // exactly the webhooks kubeloop:manifests generated from the validator and defaulter beans
        Map<?, ?> generated = SERIALIZATION.unmarshal(
                Files.readString(Path.of("chart", "files", "kubeloop", "webhooks.yaml")), Map.class);
        assertThat(validating).extracting(ValidatingWebhook::getName).containsExactlyInAnyOrderElementsOf(names(generated, "validating"));
        assertThat(mutating).extracting(MutatingWebhook::getName).containsExactlyInAnyOrderElementsOf(names(generated, "mutating"));
        // the ${kind}'s among every kind's (kubeloop:create-webhook adds others): a validator's, a defaulter's or
        // both, under the names the test kit registers too (one WebhookDescription)
        List<ValidatingWebhook> validatesKind = validating.stream()
                .filter(webhook -> webhook.getName().equals("validate." + ${kind}.PLURAL + "." + ${kind}.GROUP)).toList();
        List<MutatingWebhook> defaultsKind = mutating.stream()
                .filter(webhook -> webhook.getName().equals("default." + ${kind}.PLURAL + "." + ${kind}.GROUP)).toList();
        assertThat(validatesKind.size() + defaultsKind.size()).as("webhooks of ${kind}").isPositive();
        validatesKind.forEach(webhook -> {
            assertThat(webhook.getClientConfig().getService().getPath()).isEqualTo("/validate" + path);
            assertThat(webhook.getClientConfig().getCaBundle()).isNotBlank();
            assertThat(webhook.getRules().get(0).getScope()).isEqualTo("${scope}");
            // validation never blocks a deletion
            assertThat(webhook.getRules().get(0).getOperations()).containsExactly("CREATE", "UPDATE");
        });
        defaultsKind.forEach(webhook -> {
            assertThat(webhook.getClientConfig().getService().getPath()).isEqualTo("/mutate" + path);
            assertThat(webhook.getClientConfig().getCaBundle()).isNotBlank();
        });
        assertThat(kinds(objects)).contains("Secret");
    }

    /** The names of the generated webhooks file's {@code validating} or {@code mutating} webhooks. */
    private static List<String> names(Map<?, ?> generatedWebhooks, String type) {
        List<?> webhooks = (List<?>) generatedWebhooks.get(type);
        if (webhooks == null) {
            return List.of();
        }
        return webhooks.stream().map(webhook -> String.valueOf(((Map<?, ?>) webhook).get("name"))).toList();
    }
#else

    @Test
    void noWebhookObjectsAreRendered() {
        assertThat(kinds(render(Map.of()))).doesNotContain("ValidatingWebhookConfiguration",
                "MutatingWebhookConfiguration", "Secret");
    }
#end

    /** {@code helm template op chart --namespace operators --set ...}, parsed. */
    private static List<HasMetadata> render(Map<String, String> values) {
        return render(CHART, values);
    }

    private static List<HasMetadata> render(Path chart, Map<String, String> values) {
        TemplateCommand template = new Helm(chart).template().withName("op").withNamespace("operators");
        // helm-java's template, unlike helm's, makes the chart's lookup of an existing certificate call a cluster
        template.set("webhooks.certificate.keepAcrossUpgrades", "false");
        values.forEach(template::set);
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : template.call().split("(?m)^---\\s*$")) {
            if (document.lines().anyMatch(line -> line.startsWith("kind:"))) {
                objects.add(SERIALIZATION.unmarshal(document, HasMetadata.class));
            }
        }
        return objects;
    }

    private static Map<String, String> env(List<HasMetadata> objects) {
        Map<String, String> env = new HashMap<>();
        single(objects, Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .forEach(variable -> env.put(variable.getName(), variable.getValue()));
        return env;
    }

    private static List<String> kinds(List<HasMetadata> objects) {
        return objects.stream().map(HasMetadata::getKind).toList();
    }

    private static <T extends HasMetadata> T single(List<HasMetadata> objects, Class<T> type) {
        List<T> matching = all(objects, type);
        assertThat(matching).as(type.getSimpleName()).hasSize(1);
        return matching.get(0);
    }

    private static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The CRDs the build copied into the chart: one per kind. */
    private static List<CustomResourceDefinition> generatedCrds(Path chart) throws IOException {
        try (Stream<Path> files = Files.list(chart.resolve("files"))) {
            List<CustomResourceDefinition> crds = new ArrayList<>();
            for (Path file : files.filter(file -> file.toString().endsWith(".yml")).sorted().toList()) {
                crds.add(SERIALIZATION.unmarshal(Files.readString(file), CustomResourceDefinition.class));
            }
            return crds;
        }
    }

    private static List<String> subresources(String plural) {
        return List.of(plural, plural + "/status", plural + "/finalizers");
    }

    private static List<PolicyRule> rulesOf(HasMetadata role) {
        return role instanceof Role namespaced ? namespaced.getRules() : ((ClusterRole) role).getRules();
    }

    private static Path copyOfTheChart(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path file : files.toList()) {
                Path copy = target.resolve(CHART.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return target;
    }
}
