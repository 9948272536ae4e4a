package dev.kubeloop.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins the layering of DESIGN.md: dependencies point down only. The api, queue and runtime
 * packages must stay usable without a Spring context or Micrometer, so a stray import fails the
 * build here. Metrics and health sit on the runtime and may use Micrometer and Spring Boot's health
 * API respectively, but never the auto-configuration (the only Spring glue) nor each other. Leader
 * election sits on the runtime too and is Spring-free; the runtime gates its workers through
 * {@code WorkGate} and never knows about it.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/kubeloop");

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime", "leader"})
    void packageDoesNotUseSpring(String layer) throws IOException {
        assertThat(offenders(layer, line -> line.contains("org.springframework")))
                .as("files in dev.kubeloop.%s using org.springframework", layer).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime", "leader", "health"})
    void packageDoesNotUseMicrometer(String layer) throws IOException {
        assertThat(offenders(layer, line -> line.contains("io.micrometer")))
                .as("files in dev.kubeloop.%s using io.micrometer", layer).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime", "leader", "metrics", "health"})
    void packageDoesNotUseTheAutoConfiguration(String layer) throws IOException {
        assertThat(offenders(layer, line -> line.contains("dev.kubeloop.autoconfigure")))
                .as("files in dev.kubeloop.%s using dev.kubeloop.autoconfigure", layer).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"api", "queue", "runtime"})
    void lowerLayersDoNotUseLeaderElection(String layer) throws IOException {
        assertThat(offenders(layer, line -> line.contains("dev.kubeloop.leader")))
                .as("files in dev.kubeloop.%s using dev.kubeloop.leader", layer).isEmpty();
    }

    @Test
    void metricsUseNoSpringAndNoHealth() throws IOException {
        assertThat(offenders("metrics", line -> line.contains("org.springframework")
                || line.contains("dev.kubeloop.health"))).isEmpty();
    }

    @Test
    void healthUsesOnlySpringBootsHealthApi() throws IOException {
        assertThat(offenders("health", line -> (line.contains("org.springframework")
                && !line.contains("org.springframework.boot.health.contributor"))
                || line.contains("dev.kubeloop.metrics"))).isEmpty();
    }

    @Test
    void lowerLayersDoNotUseMetricsOrHealth() throws IOException {
        for (String layer : List.of("api", "queue", "runtime")) {
            assertThat(offenders(layer, line -> line.contains("dev.kubeloop.metrics")
                    || line.contains("dev.kubeloop.health"))).as(layer).isEmpty();
        }
    }

    private static List<String> offenders(String layer, Predicate<String> forbidden) throws IOException {
        Path directory = SOURCES.resolve(layer);
        assertThat(directory).isDirectory();
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> code(file).anyMatch(forbidden))
                    .map(Path::toString)
                    .toList();
        }
    }

    /** The file's lines outside comments: imports, static imports and fully qualified uses alike. */
    private static Stream<String> code(Path file) {
        try {
            return Files.readAllLines(file).stream().map(String::trim)
                    .filter(line -> !line.startsWith("*") && !line.startsWith("//") && !line.startsWith("/*"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
