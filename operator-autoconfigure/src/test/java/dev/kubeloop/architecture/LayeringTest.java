package dev.kubeloop.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins the layering of DESIGN.md: only {@code dev.kubeloop.autoconfigure} (and later the metrics
 * and health glue) may touch Spring. The api, queue, runtime and leader packages must stay usable
 * without a Spring context, so a stray Spring import fails the build here. Dependencies point down
 * only: the runtime gates its workers through {@code WorkGate} and never knows about leader
 * election.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/kubeloop");

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime", "leader"})
    void packageDoesNotUseSpring(String layer) throws IOException {
        assertThat(filesMentioning(layer, "org.springframework"))
                .as("files in dev.kubeloop.%s using org.springframework", layer).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime"})
    void lowerLayersDoNotUseLeaderElection(String layer) throws IOException {
        assertThat(filesMentioning(layer, "dev.kubeloop.leader"))
                .as("files in dev.kubeloop.%s using dev.kubeloop.leader", layer).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime", "leader"})
    void onlyTheGlueUsesTheGlue(String layer) throws IOException {
        assertThat(filesMentioning(layer, "dev.kubeloop.autoconfigure"))
                .as("files in dev.kubeloop.%s using dev.kubeloop.autoconfigure", layer).isEmpty();
    }

    private static List<String> filesMentioning(String layer, String packageName) throws IOException {
        Path directory = SOURCES.resolve(layer);
        assertThat(directory).isDirectory();
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> mentions(file, packageName))
                    .map(Path::toString)
                    .toList();
        }
    }

    private static boolean mentions(Path file, String packageName) {
        try {
            // imports, static imports and fully qualified uses alike
            return Files.readAllLines(file).stream().map(String::trim)
                    .filter(line -> !line.startsWith("*") && !line.startsWith("//"))
                    .anyMatch(line -> line.contains(packageName));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
