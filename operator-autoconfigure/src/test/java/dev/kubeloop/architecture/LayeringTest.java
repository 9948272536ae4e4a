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
 * and health glue) may touch Spring. The api, queue and runtime packages must stay usable without
 * a Spring context, so a stray Spring import fails the build here.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/kubeloop");

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime"})
    void packageDoesNotUseSpring(String layer) throws IOException {
        Path directory = SOURCES.resolve(layer);
        assertThat(directory).isDirectory();
        List<String> offenders;
        try (Stream<Path> files = Files.walk(directory)) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(LayeringTest::mentionsSpring)
                    .map(Path::toString)
                    .toList();
        }
        assertThat(offenders).as("files in dev.kubeloop.%s using org.springframework", layer).isEmpty();
    }

    private static boolean mentionsSpring(Path file) {
        try {
            // imports, static imports and fully qualified uses alike
            return Files.readAllLines(file).stream().map(String::trim)
                    .filter(line -> !line.startsWith("*") && !line.startsWith("//"))
                    .anyMatch(line -> line.contains("org.springframework"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
