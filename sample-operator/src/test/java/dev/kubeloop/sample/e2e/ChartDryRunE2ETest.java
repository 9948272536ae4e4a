package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kubeloop.sample.chart.RenderedChart;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The whole chart, as Helm renders it for this API server's Kubernetes version, server-side
 * dry-run applied object by object (and, with kubectl on the PATH, as one manifest with
 * {@code kubectl apply --dry-run=server}) in every values mode: cluster-wide, namespaced, webhooks
 * with the chart's certificate and with cert-manager's, webhooks off, monitoring and the
 * NetworkPolicy on. The API server checks every object against the APIs it serves and their
 * schemas, which a render alone cannot: a {@code policy/v1} PodDisruptionBudget on 1.20 is refused.
 *
 * <p>cert-manager's and prometheus-operator's kinds (Certificate, Issuer, ServiceMonitor,
 * PrometheusRule) are not served by a bare API server and their CRDs cannot be fetched here: the
 * test installs schema-less stand-ins for them (and removes them after), so those objects are
 * checked for kind, version and metadata only, not against cert-manager's schema.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", properties = "sample.demo=off")
class ChartDryRunE2ETest {

    private static final List<String[]> STAND_INS = List.of(
            new String[] {"cert-manager.io", "Certificate", "certificates"},
            new String[] {"cert-manager.io", "Issuer", "issuers"},
            new String[] {"monitoring.coreos.com", "ServiceMonitor", "servicemonitors"},
            new String[] {"monitoring.coreos.com", "PrometheusRule", "prometheusrules"});

    private static final List<String> installedStandIns = new ArrayList<>();

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @BeforeAll
    static void standInsForOperatorsCrds(@Autowired KubernetesClient client) throws Exception {
        for (String[] kind : STAND_INS) {
            String name = kind[2] + "." + kind[0];
            if (client.apiextensions().v1().customResourceDefinitions().withName(name).get() != null) {
                continue; // the real one (or a stand-in left by an earlier run): keep it
            }
            CustomResourceDefinition crd = new CustomResourceDefinitionBuilder().withNewMetadata().withName(name)
                    .addToLabels("e2e.kubeloop.dev/stand-in", "true").endMetadata()
                    .withNewSpec().withGroup(kind[0]).withScope("Namespaced")
                    .withNewNames().withKind(kind[1]).withPlural(kind[2]).withSingular(kind[1].toLowerCase()).endNames()
                    .addNewVersion().withName("v1").withServed(true).withStorage(true).withNewSchema()
                    .withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                    .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
            client.resource(crd).create();
            installedStandIns.add(name);
            Crds.awaitEstablished(client, name, 30);
        }
    }

    @AfterAll
    static void removeStandIns(@Autowired KubernetesClient client) {
        for (String name : installedStandIns) {
            client.apiextensions().v1().customResourceDefinitions().withName(name).delete();
        }
        installedStandIns.clear();
    }

    static Stream<Arguments> modes() {
        return Stream.of(
                Arguments.of("release namespace, webhooks with the chart's certificate (defaults)", Map.of()),
                Arguments.of("cluster-wide, with the TLS Secret watch", Map.of("watchAllNamespaces", "true",
                        "tlsSecrets.watch", "true")),
                Arguments.of("namespaced (watchNamespaces)", Map.of("watchNamespaces[0]", "$NAMESPACE")),
                Arguments.of("webhooks with cert-manager and a self-signed Issuer",
                        Map.of("webhooks.certificate.source", "cert-manager")),
                Arguments.of("webhooks with cert-manager and a ClusterIssuer", Map.of("webhooks.certificate.source",
                        "cert-manager", "webhooks.certificate.certManager.issuerRef.name", "corporate-ca",
                        "webhooks.certificate.certManager.issuerRef.kind", "ClusterIssuer")),
                Arguments.of("webhooks off", Map.of("webhooks.enabled", "false")),
                Arguments.of("single replica, monitoring, NetworkPolicy, write access", Map.of("replicaCount", "1",
                        "leaderElection.enabled", "false", "metrics.serviceMonitor.enabled", "true",
                        "metrics.prometheusRule.enabled", "true", "metrics.grafanaDashboard.enabled", "true",
                        "networkPolicy.enabled", "true", "networkPolicy.apiServerCidrs[0]", "127.0.0.1/32",
                        "introspectionWriteAccess", "true")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void theApiServerAcceptsEveryObjectOfTheRenderedChart(String mode, Map<String, String> values) {
        RenderedChart chart = render(values);
        List<String> refused = new ArrayList<>();
        for (HasMetadata object : chart.all()) {
            try {
                client.resource(object).dryRun().forceConflicts().serverSideApply();
            } catch (KubernetesClientException e) {
                refused.add(object.getKind() + " " + object.getMetadata().getName() + ": " + e.getMessage());
            }
        }
        assertThat(refused).as("objects the API server (%s) refused in mode '%s'", serverVersion(), mode).isEmpty();
        assertThat(chart.all()).extracting(HasMetadata::getKind).contains("Deployment", "ServiceAccount");
        System.out.printf("[e2e] chart mode '%s': %d objects accepted by kube-apiserver %s (dry run)%n", mode,
                chart.all().size(), serverVersion());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void kubectlAppliesTheWholeManifestInADryRun(String mode, Map<String, String> values) {
        Kubectl.assumeInstalled();
        Kubectl.Run run = Kubectl.run(render(values).manifest(), "apply", "--dry-run=server", "-n", kit.namespace(),
                "-f", "-");

        assertThat(run.exitCode()).as(mode + ":\n" + run.stderr()).isZero();
        assertThat(run.stdout()).contains("deployment.apps/" + kit.namespace() + "-sample-operator created (server dry run)");
    }

    @Test
    void theDisruptionBudgetOfACurrentKubernetesIsNotServedByThisOne() {
        String version = serverVersion();
        org.junit.jupiter.api.Assumptions.assumeTrue(version.startsWith("1.20."), "only a 1.20 API server lacks policy/v1");
        HasMetadata current = RenderedChart.render(kit.namespace(), kit.namespace(), "1.31.0", Map.of()).all()
                .stream().filter(o -> o.getKind().equals("PodDisruptionBudget")).findFirst().orElseThrow();
        assertThat(current.getApiVersion()).isEqualTo("policy/v1");

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(current).dryRun().create());
        assertThat(refused.getCode()).isEqualTo(404);
        assertThat(render(Map.of()).all()).filteredOn(o -> o.getKind().equals("PodDisruptionBudget"))
                .singleElement().satisfies(pdb -> assertThat(pdb.getApiVersion()).isEqualTo("policy/v1beta1"));
    }

    /** The chart for this server's Kubernetes version, as release {@code <namespace>} in the test namespace. */
    private RenderedChart render(Map<String, String> values) {
        Map<String, Object> resolved = new LinkedHashMap<>();
        values.forEach((key, value) -> resolved.put(key, value.replace("$NAMESPACE", kit.namespace())));
        return RenderedChart.render(kit.namespace(), kit.namespace(), serverVersion(), resolved);
    }

    /** {@code 1.20.15} of {@code v1.20.15+debian}. */
    private String serverVersion() {
        String git = client.getKubernetesVersion().getGitVersion();
        return git.replaceFirst("^v", "").replaceFirst("[-+].*$", "");
    }
}
