package dev.kubeloop.sample.replica;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kubeconfig for the embedded mock API server of a {@code @KubeloopTest}, so that a replica in
 * another JVM finds it the way an operator finds any cluster. The mock serves plain HTTP on
 * loopback and accepts any token.
 */
final class MockKubeconfig {

    private MockKubeconfig() {
    }

    static Path write(Path directory, KubernetesClient client) {
        String server = client.getMasterUrl().toString().replaceAll("/$", "");
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: test
                    namespace: %s
                current-context: mock
                users:
                - name: test
                  user:
                    token: test
                """.formatted(server, client.getNamespace());
        try {
            Files.createDirectories(directory);
            return Files.writeString(directory.resolve("mock-kubeconfig.yaml"), kubeconfig, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a kubeconfig for the mock API server", e);
        }
    }
}
