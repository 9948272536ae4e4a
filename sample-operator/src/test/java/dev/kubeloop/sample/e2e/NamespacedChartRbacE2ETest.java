package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.KubeloopTest;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;

/** The chart with {@code watchNamespaces}: a Role and RoleBinding in the watched namespace, nothing cluster-wide. */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.leader-election.enabled=true",
                ChartRbacE2ETest.WATCH_NAMESPACE + "=true"})
@Import(ChartRbacE2ETest.OperatorUnderChartRbac.class)
class NamespacedChartRbacE2ETest extends ChartRbacE2ETest {

    /** watchNamespaces, the mitigation docs/security.md recommends: nothing outside those namespaces. */
    @Test
    void theReachEndsAtTheWatchedNamespaces() {
        assertThat(rbac.allows("patch", "", "configmaps", kit.namespace())).isTrue();
        assertThat(rbac.allows("patch", "", "configmaps", "kube-system")).isFalse();
        assertThat(rbac.allows("list", "apps", "deployments", "kube-system")).isFalse();
        assertThat(rbac.allows("list", "sample.kubeloop.dev", "websites", "default")).isFalse();
    }

    @Test
    void theChartGrantsNothingClusterWide() {
        assertThat(rbac.objects()).noneMatch(object -> object.startsWith("Cluster"))
                .anyMatch(object -> object.startsWith("Role "));
    }
}
