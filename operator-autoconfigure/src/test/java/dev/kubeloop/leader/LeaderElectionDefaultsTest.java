package dev.kubeloop.leader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where identity and Lease namespace come from when they are not configured. */
class LeaderElectionDefaultsTest {

    @TempDir
    Path tmp;

    @Test
    void identityIsThePodNameWithARandomSuffix() {
        String first = LeaderElectionDefaults.identity(Map.of("HOSTNAME", "op-7d9f-abcde"), () -> "host");
        String second = LeaderElectionDefaults.identity(Map.of("HOSTNAME", "op-7d9f-abcde"), () -> "host");

        assertThat(first).matches("op-7d9f-abcde_[0-9a-f]{8}");
        assertThat(second).as("a restarted process never reuses an identity").isNotEqualTo(first);
    }

    @Test
    void identityFallsBackToTheHostName() {
        assertThat(LeaderElectionDefaults.identity(Map.of(), () -> "laptop")).startsWith("laptop_");
        assertThat(LeaderElectionDefaults.identity(Map.of(), () -> null)).startsWith("kubeloop_");
    }

    @Test
    void namespaceIsTheServiceAccountsThenPodNamespaceThenTheClientsThenDefault() throws IOException {
        Path mounted = Files.writeString(tmp.resolve("namespace"), "from-mount\n");
        Path missing = tmp.resolve("missing");

        assertThat(LeaderElectionDefaults.namespace(mounted, Map.of("POD_NAMESPACE", "from-env"), "from-client"))
                .isEqualTo("from-mount");
        assertThat(LeaderElectionDefaults.namespace(missing, Map.of("POD_NAMESPACE", "from-env"), "from-client"))
                .isEqualTo("from-env");
        assertThat(LeaderElectionDefaults.namespace(missing, Map.of(), "from-client")).isEqualTo("from-client");
        assertThat(LeaderElectionDefaults.namespace(missing, Map.of(), null)).isEqualTo("default");
    }
}
