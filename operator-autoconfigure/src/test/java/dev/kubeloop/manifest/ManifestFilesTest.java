package dev.kubeloop.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.manifest.ApplicationAccess.Coordination;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generated files, and the check that fails a build whose chart lacks what the code declares. */
class ManifestFilesTest {

    private static String rbac(ControllerConfig<Widget> config) {
        ApplicationAccess base = ApplicationAccess.derive(List.of(new ReconcilerAccess(config, false)),
                Coordination.NONE);
        ApplicationAccess elected = ApplicationAccess.derive(List.of(new ReconcilerAccess(config, false)),
                Coordination.LEADER_ELECTION);
        return ManifestFiles.rbac(base, Map.of("leaderElection", new ManifestFiles.Option(
                Map.of("kubeloop.leader-election.enabled", "true"), elected.beyond(base))));
    }

    @Test
    void theSameCodeGivesTheSameBytes() {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class).owns(ConfigMap.class).build();
        String lease = "      - {apiGroups: [\"coordination.k8s.io\"], resources: [\"leases\"], verbs: [\"get\", "
                + "\"list\", \"watch\", \"create\", \"update\", \"patch\"]}\n";
        assertThat(rbac(config)).isEqualTo(rbac(config)).contains("""
                workload:
                  - {apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch", "create", "patch"]}
                """).contains("""
                options:
                  leaderElection:
                    properties: {kubeloop.leader-election.enabled: "true"}
                    workload: []
                    releaseNamespace:
                """ + lease);
    }

    /** The reconciler now owns Jobs, the chart's file does not grant them: the check names the rule. */
    @Test
    void aKindTheCodeDeclaresAndTheFileLacksIsNamed() {
        String committed = rbac(ControllerConfig.builder("widget", Widget.class).owns(ConfigMap.class).build());
        String code = rbac(ControllerConfig.builder("widget", Widget.class).owns(ConfigMap.class).owns(Job.class).build());
        assertThat(ManifestFiles.check("chart/files/kubeloop/rbac.yaml", committed, code)).containsExactly(
                "chart/files/kubeloop/rbac.yaml lacks what the code needs: workload: - {apiGroups: [\"batch\"], "
                        + "resources: [\"jobs\"], verbs: [\"get\", \"list\", \"watch\", \"create\", \"patch\"]}");
        assertThat(ManifestFiles.check("rbac.yaml", code, committed)).as("least privilege: more than declared fails too")
                .singleElement().asString().startsWith("rbac.yaml has what the code does not declare: workload: - {apiGroups: [\"batch\"]");
        assertThat(ManifestFiles.check("rbac.yaml", "# edited comment\n" + code, code)).isEmpty();
    }

    /** A rule granted under another section (the release namespace instead of the workload) is a difference. */
    @Test
    void theSectionOfARuleCounts() {
        String code = rbac(ControllerConfig.builder("widget", Widget.class).build());
        String moved = code.replace("    releaseNamespace:\n      - {apiGroups: [\"coordination.k8s.io\"]",
                "    workload:\n      - {apiGroups: [\"coordination.k8s.io\"]").replace("    workload: []\n    workload:",
                        "    workload:").concat("    releaseNamespace: []\n");
        assertThat(ManifestFiles.check("rbac.yaml", moved, code)).hasSize(2)
                .anySatisfy(problem -> assertThat(problem).contains("lacks what the code needs: "
                        + "options.leaderElection.releaseNamespace: - {apiGroups: [\"coordination.k8s.io\"]"));
    }
}
