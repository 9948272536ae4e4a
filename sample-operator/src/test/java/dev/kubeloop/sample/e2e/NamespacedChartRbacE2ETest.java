package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.test.KubeloopTest;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;

/**
 * The chart with its defaults: a Role and RoleBinding in the release namespace (here the test
 * namespace), nothing cluster-wide, nothing on Secrets; the operator as the chart configures it
 * (no TLS Secret watch).
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.leader-election.enabled=true"})
@Import(ChartRbacE2ETest.OperatorUnderChartRbac.class)
class NamespacedChartRbacE2ETest extends ChartRbacE2ETest {

    /**
     * What the default install must be refused, asked of the API server: outside the release
     * namespace nothing (no Secret read, no Deployment created in kube-system, no ConfigMap deleted
     * there, no Websites elsewhere); in it, no Secrets at all. What it must be allowed: its own work
     * in the release namespace.
     */
    @Test
    void theDefaultReachEndsAtTheReleaseNamespaceAndExcludesSecrets() {
        for (String verb : new String[] {"get", "list", "watch"}) {
            assertThat(rbac.allows(verb, "", "secrets", "kube-system")).as(verb + " secrets in kube-system").isFalse();
            assertThat(rbac.allows(verb, "", "secrets", kit.namespace())).as(verb + " secrets here").isFalse();
        }
        assertThat(rbac.allows("create", "apps", "deployments", "kube-system")).isFalse();
        assertThat(rbac.allows("patch", "apps", "deployments", "kube-system")).isFalse();
        assertThat(rbac.allows("delete", "", "configmaps", "kube-system")).isFalse();
        assertThat(rbac.allows("patch", "", "configmaps", "kube-system")).isFalse();
        assertThat(rbac.allows("create", "", "services", "default")).isFalse();
        assertThat(rbac.allows("list", "apps", "deployments", "kube-system")).isFalse();
        assertThat(rbac.allows("list", "sample.kubeloop.dev", "websites", "default")).isFalse();
        assertThat(rbac.allows("create", "", "pods", kit.namespace())).isFalse();

        assertThat(rbac.allows("patch", "", "configmaps", kit.namespace())).isTrue();
        assertThat(rbac.allows("delete", "", "configmaps", kit.namespace())).as("pruning").isTrue();
        assertThat(rbac.allows("create", "apps", "deployments", kit.namespace())).isTrue();
        assertThat(rbac.allows("patch", "sample.kubeloop.dev", "websites/status", kit.namespace())).isTrue();
    }

    /** The attack the review ran: a privileged hostPath Deployment in kube-system, as a server dry-run. */
    @Test
    void aPrivilegedDeploymentInKubeSystemIsRefusedEvenAsADryRun() {
        Deployment privileged = new DeploymentBuilder().withNewMetadata().withName("rbac-probe")
                .withNamespace("kube-system").endMetadata()
                .withNewSpec().withNewSelector().withMatchLabels(Map.of("app", "probe")).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(Map.of("app", "probe")).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").withNewSecurityContext()
                .withPrivileged(true).endSecurityContext().addNewVolumeMount().withName("host").withMountPath("/host")
                .endVolumeMount().endContainer().addNewVolume().withName("host").withNewHostPath().withPath("/")
                .endHostPath().endVolume().endSpec().endTemplate().endSpec().build();
        try (KubernetesClient operator = rbac.client(new ArrayList<>())) {
            assertThatThrownBy(() -> operator.apps().deployments().inNamespace("kube-system").resource(privileged)
                    .dryRun().create()).isInstanceOfSatisfying(KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(403));
            assertThatThrownBy(() -> operator.secrets().inNamespace("kube-system").list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
            assertThatThrownBy(() -> operator.configMaps().inNamespace("kube-system")
                    .withName("extension-apiserver-authentication").delete())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        }
    }

    @Test
    void theChartGrantsNothingClusterWide() {
        assertThat(rbac.objects()).noneMatch(object -> object.startsWith("Cluster"))
                .anyMatch(object -> object.startsWith("Role "));
    }
}
