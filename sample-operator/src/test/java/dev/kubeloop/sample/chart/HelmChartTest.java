package dev.kubeloop.sample.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Helm chart, linted and rendered by a real Helm engine (helm-java), asserted object by object. */
class HelmChartTest {

    @Test
    void lintsCleanInStrictMode() {
        LintResult result = new Helm(RenderedChart.CHART).lint().strict().call();
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
        assertThat(result.getMessages()).noneMatch(message -> message.contains("[WARNING]")
                || message.contains("[ERROR]"));
    }

    @Test
    void defaultsRenderTwoLeaderElectedReplicasWithProbesOnTheManagementPort() {
        RenderedChart chart = RenderedChart.render(Map.of());

        assertThat(chart.kinds()).containsExactlyInAnyOrder("ServiceAccount", "Role", "RoleBinding", "Role",
                "RoleBinding", "Service", "Deployment", "PodDisruptionBudget", "CustomResourceDefinition",
                "Secret", "Service", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration");
        Deployment deployment = chart.one(Deployment.class);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getMetadata().getNamespace()).isEqualTo(RenderedChart.NAMESPACE);
        Container operator = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(operator.getPorts()).filteredOn(port -> port.getName().equals("management")).singleElement()
                .satisfies(port -> assertThat(port.getContainerPort()).isEqualTo(8081));
        assertThat(operator.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(operator.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(operator.getStartupProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(operator.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("management");
        Map<String, String> env = env(operator);
        assertThat(env).containsEntry("KUBELOOP_LEADER_ELECTION_ENABLED", "true")
                .containsEntry("KUBELOOP_LEADER_ELECTION_LEASE_NAME", "kl-sample-operator-leader")
                .containsEntry("KUBELOOP_LEADER_ELECTION_LEASE_NAMESPACE", RenderedChart.NAMESPACE)
                .containsEntry("MANAGEMENT_SERVER_PORT", "8081")
                .containsEntry("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health,info,prometheus,kubeloop")
                .containsEntry("MANAGEMENT_ENDPOINT_KUBELOOP_ACCESS", "read-only")
                .containsEntry("KUBELOOP_INFORMER_LIST_PAGE_SIZE", "500")
                .containsEntry("SAMPLE_DEMO", "off")
                .containsEntry("KUBELOOP_RECONCILERS_WEBSITE_NAMESPACES", RenderedChart.NAMESPACE);
        assertThat(env.get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError");
        assertThat(operator.getResources().getLimits()).containsKeys("cpu", "memory");
        assertThat(operator.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()).isEqualTo(45L);
        assertThat(chart.one(PodDisruptionBudget.class).getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(chart.all(Service.class)).filteredOn(service -> service.getMetadata().getName().endsWith("-metrics"))
                .singleElement().satisfies(service -> assertThat(service.getSpec().getPorts()).singleElement()
                        .satisfies(port -> assertThat(port.getTargetPort().getStrVal()).isEqualTo("management")));
        assertThat(chart.one(ServiceAccount.class).getMetadata().getName())
                .isEqualTo(deployment.getSpec().getTemplate().getSpec().getServiceAccountName());
    }

    @Test
    void podSatisfiesPodSecurityRestrictedFieldByField() {
        PodSpec pod = RenderedChart.render(Map.of()).one(Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isNotZero();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getHostIPC()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getVolumes()).allSatisfy(volume -> assertThat(volume.getHostPath()).isNull());
        for (Container container : pod.getContainers()) {
            var security = container.getSecurityContext();
            assertThat(security.getAllowPrivilegeEscalation()).isFalse();
            assertThat(security.getPrivileged()).isNotEqualTo(Boolean.TRUE);
            assertThat(security.getReadOnlyRootFilesystem()).isTrue();
            assertThat(security.getRunAsNonRoot()).isTrue();
            assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
            assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(container.getPorts()).allSatisfy(port -> assertThat(port.getHostPort()).isNull());
            assertThat(container.getVolumeMounts()).anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/tmp"));
        }
        assertThat(pod.getVolumes()).anySatisfy(volume -> {
            assertThat(volume.getName()).isEqualTo("tmp");
            assertThat(volume.getEmptyDir()).isNotNull();
        });
    }

    /**
     * The default install works in the release namespace only and has no access to Secrets: a Role
     * there for Websites and their owned objects, a Role for the Lease, nothing cluster-wide.
     */
    @Test
    void rbacGrantsOnlyWhatTheOperatorUsesAndNoWildcards() {
        RenderedChart chart = RenderedChart.render(Map.of());
        assertThat(chart.all(ClusterRole.class)).isEmpty();
        assertThat(chart.all(ClusterRoleBinding.class)).isEmpty();
        assertThat(chart.all(Role.class)).allSatisfy(role ->
                assertThat(role.getMetadata().getNamespace()).isEqualTo(RenderedChart.NAMESPACE));
        List<PolicyRule> workloadRules = role(chart, "kl-sample-operator").getRules();
        assertThat(resources(workloadRules)).containsExactlyInAnyOrder("websites", "websites/status",
                "websites/finalizers", "configmaps", "services", "deployments", "events");
        assertThat(env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)))
                .containsEntry("KUBELOOP_RECONCILERS_WEBSITE_NAMESPACES", RenderedChart.NAMESPACE)
                .containsEntry("SAMPLE_TLS_SECRETS_WATCH", "false");
        Role leases = role(chart, "kl-sample-operator-leader-election");
        assertThat(leases.getMetadata().getNamespace()).isEqualTo(RenderedChart.NAMESPACE);
        assertThat(leases.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
            assertThat(rule.getResources()).containsExactly("leases");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch", "create", "update", "patch");
        });
        for (List<PolicyRule> rules : List.of(workloadRules, leases.getRules())) {
            assertThat(rules).allSatisfy(rule -> {
                assertThat(rule.getVerbs()).doesNotContain("*");
                assertThat(rule.getResources()).doesNotContain("*");
                assertThat(rule.getApiGroups()).doesNotContain("*");
                assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
            });
        }
        assertThat(chart.all(RoleBinding.class)).hasSize(2).allSatisfy(binding -> assertThat(binding.getSubjects())
                .singleElement().satisfies(subject -> assertThat(subject.getNamespace())
                        .isEqualTo(RenderedChart.NAMESPACE)));
    }

    /** Cluster-wide reach is one explicit value, and the operator then watches every namespace. */
    @Test
    void watchAllNamespacesIsTheOnlyWayToAClusterRole() {
        RenderedChart chart = RenderedChart.render(Map.of("watchAllNamespaces", "true"));
        assertThat(resources(chart.one(ClusterRole.class).getRules())).containsExactlyInAnyOrder("websites",
                "websites/status", "websites/finalizers", "configmaps", "services", "deployments", "events");
        assertThat(chart.one(ClusterRoleBinding.class).getSubjects()).singleElement()
                .satisfies(subject -> assertThat(subject.getNamespace()).isEqualTo(RenderedChart.NAMESPACE));
        assertThat(chart.all(Role.class)).extracting(role -> role.getMetadata().getName())
                .containsExactly("kl-sample-operator-leader-election");
        assertThat(env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)))
                .doesNotContainKey("KUBELOOP_RECONCILERS_WEBSITE_NAMESPACES");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("watchAllNamespaces", "true",
                "watchNamespaces[0]", "team-a"))).hasMessageContaining("watchAllNamespaces and watchNamespaces");
    }

    /** Secrets (list/watch, which RBAC cannot confine to metadata) only with tlsSecrets.watch, and only where the operator works. */
    @Test
    void tlsSecretsWatchIsTheOnlyWayToSecrets() {
        RenderedChart chart = RenderedChart.render(Map.of("tlsSecrets.watch", "true"));
        assertThat(role(chart, "kl-sample-operator").getRules()).filteredOn(rule -> rule.getResources()
                .contains("secrets")).singleElement().satisfies(rule -> assertThat(rule.getVerbs())
                        .containsExactlyInAnyOrder("list", "watch"));
        assertThat(env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)))
                .containsEntry("SAMPLE_TLS_SECRETS_WATCH", "true");
        for (Map<String, Object> values : List.<Map<String, Object>>of(Map.of(), Map.of("watchAllNamespaces", "true"),
                Map.of("watchNamespaces[0]", "team-a"), Map.of("sharding.enabled", "true"))) {
            RenderedChart without = RenderedChart.render(values);
            List<PolicyRule> rules = new ArrayList<>();
            without.all(ClusterRole.class).forEach(role -> rules.addAll(role.getRules()));
            without.all(Role.class).forEach(role -> rules.addAll(role.getRules()));
            assertThat(resources(rules)).as("%s", values).doesNotContain("secrets");
        }
    }

    private static Role role(RenderedChart chart, String name) {
        return chart.all(Role.class).stream().filter(role -> role.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no Role " + name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueCombinations")
    void noRenderingGrantsWildcardsSecretsOrWaysToEscalate(String described, Map<String, Object> values) {
        RenderedChart chart = RenderedChart.render(values);
        List<PolicyRule> rules = new ArrayList<>();
        chart.all(ClusterRole.class).forEach(role -> rules.addAll(role.getRules()));
        chart.all(Role.class).forEach(role -> rules.addAll(role.getRules()));
        assertThat(rules).isNotEmpty().allSatisfy(rule -> {
            assertThat(rule.getVerbs()).isNotEmpty().doesNotContain("*", "escalate", "bind", "impersonate");
            assertThat(rule.getResources()).isNotEmpty().doesNotContain("*", "serviceaccounts/token",
                    "pods/exec", "roles", "clusterroles", "rolebindings", "clusterrolebindings");
            if (rule.getResources().contains("secrets")) {
                // tlsSecrets.watch: the TLS Secrets Websites name are watched metadata-only: never read one by name, never write
                assertThat(rule.getResources()).containsExactly("secrets");
                assertThat(rule.getVerbs()).containsExactlyInAnyOrder("list", "watch");
            }
            assertThat(rule.getApiGroups()).doesNotContain("*");
            assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
            assertThat(rule.getResourceNames()).isNullOrEmpty();
        });
        assertThat(rules).filteredOn(rule -> rule.getResources().contains("events"))
                .allSatisfy(rule -> assertThat(rule.getVerbs()).containsExactlyInAnyOrder("create", "patch"));
        assertThat(chart.all(ClusterRoleBinding.class)).allSatisfy(binding -> assertThat(binding.getRoleRef().getName())
                .as("cluster-wide bindings only to the chart's own ClusterRole")
                .isEqualTo(chart.one(ClusterRole.class).getMetadata().getName()));
        assertThat(chart.all(RoleBinding.class)).allSatisfy(binding ->
                assertThat(binding.getRoleRef().getKind()).isEqualTo("Role"));
    }

    static Stream<Arguments> valueCombinations() {
        return Stream.of(
                Arguments.of("defaults", Map.of()),
                Arguments.of("watchAllNamespaces and tlsSecrets.watch", Map.of("watchAllNamespaces", "true",
                        "tlsSecrets.watch", "true")),
                Arguments.of("watchNamespaces", Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b")),
                Arguments.of("single replica without leader election", Map.of("replicaCount", "1",
                        "leaderElection.enabled", "false")),
                Arguments.of("sharding", Map.of("replicaCount", "4", "sharding.enabled", "true")),
                Arguments.of("monitoring and write access on", Map.of("metrics.serviceMonitor.enabled", "true",
                        "metrics.prometheusRule.enabled", "true", "metrics.grafanaDashboard.enabled", "true",
                        "introspectionWriteAccess", "true")));
    }

    @Test
    void theServiceAccountTokenIsMountedOnlyIntoTheOperatorPod() {
        RenderedChart chart = RenderedChart.render(Map.of());
        assertThat(chart.one(ServiceAccount.class).getAutomountServiceAccountToken())
                .as("pods that merely use the account get no token").isFalse();
        PodSpec pod = chart.one(Deployment.class).getSpec().getTemplate().getSpec();
        assertThat(pod.getAutomountServiceAccountToken()).as("the operator needs its token, and asks for it").isTrue();
        assertThat(pod.getVolumes()).as("no secret volumes but the webhook's serving certificate: the token is the "
                + "projected one Kubernetes mounts").allSatisfy(volume -> assertThat(volume.getSecret() == null
                        || volume.getSecret().getSecretName().equals("kl-sample-operator-webhook-tls")).isTrue());
        assertThat(pod.getContainers()).allSatisfy(container -> assertThat(container.getEnv())
                .allSatisfy(env -> assertThat(env.getValueFrom() == null || env.getValueFrom().getSecretKeyRef() == null)
                        .as("env %s from a secret", env.getName()).isTrue()));
    }

    @Test
    void watchNamespacesReplaceTheClusterRoleWithOneRolePerNamespace() {
        RenderedChart chart = RenderedChart.render(Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));

        assertThat(chart.all(ClusterRole.class)).isEmpty();
        assertThat(chart.all(ClusterRoleBinding.class)).isEmpty();
        assertThat(chart.all(Role.class)).extracting(role -> role.getMetadata().getNamespace())
                .containsExactlyInAnyOrder(RenderedChart.NAMESPACE, "team-a", "team-b");
        assertThat(chart.all(RoleBinding.class)).hasSize(3);
        assertThat(env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)))
                .containsEntry("KUBELOOP_RECONCILERS_WEBSITE_NAMESPACES", "team-a,team-b");
    }

    @Test
    void monitoringObjectsAppearOnlyWhenEnabled() throws Exception {
        RenderedChart defaults = RenderedChart.render(Map.of());
        assertThat(defaults.kinds()).doesNotContain("ServiceMonitor", "PrometheusRule");
        assertThat(defaults.all(ConfigMap.class)).isEmpty();

        RenderedChart monitored = RenderedChart.render(Map.of("metrics.serviceMonitor.enabled", "true",
                "metrics.prometheusRule.enabled", "true", "metrics.grafanaDashboard.enabled", "true"));
        GenericKubernetesResource serviceMonitor = (GenericKubernetesResource) monitored.kind("ServiceMonitor")
                .orElseThrow();
        assertThat(serviceMonitor.<String>get("spec", "endpoints", 0, "path")).isEqualTo("/actuator/prometheus");
        assertThat(serviceMonitor.<String>get("spec", "endpoints", 0, "port")).isEqualTo("management");
        GenericKubernetesResource rule = (GenericKubernetesResource) monitored.kind("PrometheusRule").orElseThrow();
        List<Map<String, Object>> alerts = rule.get("spec", "groups", 0, "rules");
        assertThat(alerts).extracting(alert -> alert.get("alert")).containsExactlyInAnyOrder(
                "KubeloopReconcileErrorRatioHigh", "KubeloopWorkQueueDepthGrowing", "KubeloopWorkerStuck",
                "KubeloopNoLeader");
        assertThat(alerts).allSatisfy(alert -> assertThat((String) alert.get("expr")).contains("job=\"kl-sample-operator-metrics\""));
        ConfigMap dashboard = monitored.one(ConfigMap.class);
        JsonNode json = new ObjectMapper().readTree(dashboard.getData().get("kubeloop-operator.json"));
        Set<String> expressions = json.get("panels").findValuesAsText("expr").stream().collect(Collectors.toSet());
        assertThat(String.join("\n", expressions)).contains("controller_runtime_reconcile_total",
                "controller_runtime_reconcile_time_seconds_bucket", "workqueue_depth",
                "workqueue_queue_duration_seconds_bucket", "controller_runtime_active_workers",
                "leader_election_master_status");
    }

    @Test
    void singleReplicaHasNoDisruptionBudgetAndWriteAccessIsOptIn() {
        RenderedChart chart = RenderedChart.render(Map.of("replicaCount", "1", "introspectionWriteAccess", "true"));
        assertThat(chart.all(PodDisruptionBudget.class)).isEmpty();
        assertThat(env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0)))
                .containsEntry("MANAGEMENT_ENDPOINT_KUBELOOP_ACCESS", "unrestricted");
    }

    /** Zero stops the operator: how a release switches between leader election and sharding (docs/sharding.md). */
    @Test
    void zeroReplicasRendersAStoppedDeploymentWithoutADisruptionBudget() {
        RenderedChart chart = RenderedChart.render(Map.of("replicaCount", "0", "sharding.enabled", "true"));
        assertThat(chart.one(Deployment.class).getSpec().getReplicas()).isZero();
        assertThat(chart.all(PodDisruptionBudget.class)).isEmpty();
    }

    @Test
    void shardingTurnsLeaderElectionOffAndGrantsTheRingsLeasesIncludingDelete() {
        RenderedChart chart = RenderedChart.render(Map.of("replicaCount", "4", "sharding.enabled", "true"));
        Map<String, String> env = env(chart.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers()
                .get(0));
        assertThat(env).containsEntry("KUBELOOP_SHARDING_ENABLED", "true")
                .containsEntry("KUBELOOP_LEADER_ELECTION_ENABLED", "false")
                .containsEntry("KUBELOOP_SHARDING_BUCKETS", "32")
                .containsEntry("KUBELOOP_SHARDING_NAMESPACE", RenderedChart.NAMESPACE)
                .containsEntry("KUBELOOP_SHARDING_LEASE_DURATION", "15s")
                .containsKey("KUBELOOP_SHARDING_RING_NAME");
        Role ring = role(chart, "kl-sample-operator-sharding");
        assertThat(ring.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("leases");
            assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch", "create", "update", "patch",
                    "delete");
        });
        assertThat(role(chart, "kl-sample-operator").getRules()).anySatisfy(rule -> {
            assertThat(rule.getResources()).contains("websites");
            assertThat(rule.getVerbs()).as("the slot label is a patch").contains("patch");
        });
        assertThatThrownBy(() -> RenderedChart.render(Map.of("replicaCount", "4", "sharding.enabled", "true",
                "sharding.buckets", "2"))).hasMessageContaining("sharding.buckets must be at least replicaCount");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("sharding.enabled", "true",
                "sharding.renewDeadlineSeconds", "3"))).hasMessageContaining("sharding.renewDeadlineSeconds must be "
                        + "at least 2 × sharding.retryPeriodSeconds");
    }

    @Test
    void invalidValuesFailWithAMessageNamingTheValue() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("leaderElection.enabled", "false")))
                .hasMessageContaining("replicaCount > 1 needs leaderElection.enabled=true or sharding.enabled=true");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("leaderElection.renewDeadlineSeconds", "20")))
                .hasMessageContaining("leaderElection.leaseDurationSeconds must be greater");
        // the operator's own rule (LeaseTimings): a release the operator would refuse at startup is refused here
        assertThatThrownBy(() -> RenderedChart.render(Map.of("leaderElection.retryPeriodSeconds", "6")))
                .hasMessageContaining("leaderElection.renewDeadlineSeconds must be at least 2 × "
                        + "leaderElection.retryPeriodSeconds");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("replicaCount", "-1")))
                .hasMessageContaining("replicaCount");
        assertThatThrownBy(() -> RenderedChart.render(Map.of("operator.logLevel", "LOUD")))
                .hasMessageContaining("logLevel");
    }

    @Test
    void theChartsCrdsAreTheOnesGeneratedFromTheJavaClasses() throws Exception {
        Path generatedDirectory = Path.of("target", "classes", "META-INF", "fabric8");
        List<String> generated = crdFileNames(generatedDirectory);
        assertThat(generated).as("generated by the crd-generator-maven-plugin").contains("websites.sample.kubeloop.dev-v1.yml");
        assertThat(crdFileNames(RenderedChart.CHART.resolve("files"))).as("helm/sample-operator/files/ holds every "
                + "generated CRD and no other").containsExactlyElementsOf(generated);
        for (String name : generated) {
            Path inChart = RenderedChart.CHART.resolve("files").resolve(name);
            assertThat(Files.readString(inChart)).as("helm/sample-operator/files/" + name + " has drifted from the "
                    + "generated CRD; copy " + generatedDirectory.resolve(name) + " over it")
                    .isEqualTo(Files.readString(generatedDirectory.resolve(name)));
        }
    }

    private static List<String> crdFileNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith("-v1.yml")).sorted().toList();
        }
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private static List<String> resources(List<PolicyRule> rules) {
        return rules.stream().flatMap(rule -> rule.getResources().stream()).toList();
    }
}
