package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a real cluster is configured, no embedded server stands in for it: one row per way to configure one. */
class ConfiguredClusterTest {

    @TempDir
    Path home;

    private Optional<String> with(String... keysAndValues) {
        Map<String, String> properties = new HashMap<>(Map.of("user.home", home.toString()));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return EmbeddedApiServer.configuredCluster(properties::get);
    }

    @Test
    void nothingConfiguredMeansNoCluster() {
        assertThat(with()).isEmpty();
    }

    @Test
    void insideAPodThereIsOne() {
        assertThat(with("KUBERNETES_SERVICE_HOST", "10.0.0.1")).hasValue("running in a pod (KUBERNETES_SERVICE_HOST is set)");
    }

    @Test
    void aMasterUrlIsOne() {
        assertThat(with("kubernetes.master", "https://lab:6443")).hasValue("kubernetes.master is set");
    }

    @Test
    void aKubeconfigCountsOnlyWhenOneOfItsFilesExists() throws IOException {
        Path config = Files.writeString(home.resolve("lab.yaml"), "apiVersion: v1\nkind: Config\n");

        assertThat(with("KUBECONFIG", home.resolve("missing.yaml").toString())).isEmpty();
        assertThat(with("KUBECONFIG", home.resolve("missing.yaml") + java.io.File.pathSeparator + config))
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("KUBECONFIG points at "));
    }

    @Test
    void theDefaultKubeconfigInTheHomeDirectoryIsOne() throws IOException {
        Files.createDirectories(home.resolve(".kube"));
        Files.writeString(home.resolve(".kube").resolve("config"), "apiVersion: v1\nkind: Config\n");

        assertThat(with()).hasValue(home.resolve(".kube").resolve("config") + " exists");
    }
}
