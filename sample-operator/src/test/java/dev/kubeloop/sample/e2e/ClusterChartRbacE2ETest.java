package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.KubeloopTest;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;

/**
 * The chart with the most reach it can grant: {@code watchAllNamespaces} (a ClusterRole and
 * ClusterRoleBinding for Websites in every namespace) and {@code tlsSecrets.watch} (list/watch on
 * Secrets), the operator watching TLS Secrets as the chart then configures it. (The kit still
 * confines the operator to the test namespace, as it does every test.)
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.leader-election.enabled=true", "sample.tls-secrets.watch=true",
                ChartRbacE2ETest.CHART_VALUES + "=watchAllNamespaces=true,tlsSecrets.watch=true"})
@Import(ChartRbacE2ETest.OperatorUnderChartRbac.class)
class ClusterChartRbacE2ETest extends ChartRbacE2ETest {

    /**
     * The reach docs/security.md states for these opt-in values: cluster-wide, the operator may
     * create and patch ConfigMaps, Services and Deployments in every namespace, kube-system included
     * (RBAC cannot narrow a verb to the objects one creates), and delete ConfigMaps (pruning); and it
     * may list and watch Secrets everywhere (RBAC cannot say "metadata only"). It may not update the
     * owned kinds (server-side apply is a patch), delete Services or Deployments, nor get a Secret
     * by name or write one.
     */
    @Test
    void theClusterWideReachIsWhatTheSecurityReviewSays() {
        assertThat(rbac.allows("patch", "", "configmaps", "kube-system")).isTrue();
        assertThat(rbac.allows("create", "apps", "deployments", "kube-system")).isTrue();
        assertThat(rbac.allows("patch", "", "services", "kube-system")).isTrue();
        assertThat(rbac.allows("delete", "", "configmaps", "kube-system")).isTrue();
        assertThat(rbac.allows("list", "", "secrets", "kube-system")).isTrue();
        assertThat(rbac.allows("update", "", "configmaps", "kube-system")).isFalse();
        assertThat(rbac.allows("delete", "apps", "deployments", "kube-system")).isFalse();
        assertThat(rbac.allows("delete", "", "services", "kube-system")).isFalse();
        assertThat(rbac.allows("get", "", "secrets", "kube-system")).isFalse();
        assertThat(rbac.allows("create", "", "secrets", "kube-system")).isFalse();
        assertThat(rbac.allows("patch", "", "configmaps", kit.namespace())).isTrue();
    }

    @Test
    void theChartGrantsTheWorkloadRulesClusterWide() {
        assertThat(rbac.objects()).anyMatch(object -> object.startsWith("ClusterRole "))
                .anyMatch(object -> object.startsWith("ClusterRoleBinding "));
    }
}
