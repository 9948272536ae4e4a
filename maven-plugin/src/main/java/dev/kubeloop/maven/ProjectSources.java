package dev.kubeloop.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an existing generated project already says, read from its sources rather than asked for
 * again: the application's package, and the custom resource classes with their API group,
 * version, plural and scope (the constants the archetype and {@code create-api} write). Stateless.
 */
final class ProjectSources {

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern GROUP = Pattern.compile("String GROUP = \"([^\"]+)\"");
    private static final Pattern VERSION = Pattern.compile("String VERSION = \"([^\"]+)\"");
    private static final Pattern PLURAL = Pattern.compile("String PLURAL = \"([^\"]+)\"");

    /** A custom resource class of the project, as its constants describe it. */
    record ExistingKind(String kind, String group, String version, String plural, boolean namespaced) {
    }

    private final Path basedir;

    ProjectSources(Path basedir) {
        this.basedir = basedir;
    }

    Path mainSources() {
        return basedir.resolve("src/main/java");
    }

    /** The package of the {@code @SpringBootApplication} class, where the archetype put the kind's classes. */
    String applicationPackage() throws ScaffoldException {
        List<String> packages = new ArrayList<>();
        for (Path source : javaSources(mainSources())) {
            String text = read(source);
            if (text.contains("@SpringBootApplication")) {
                Matcher matcher = PACKAGE.matcher(text);
                packages.add(matcher.find() ? matcher.group(1) : "");
            }
        }
        if (packages.size() != 1) {
            throw new ScaffoldException("-Dpackage is required here: " + packages.size() + " @SpringBootApplication "
                    + "classes in " + basedir.relativize(mainSources()) + " " + packages
                    + "; name the package of the new classes (-Dpackage=com.example.operator)");
        }
        return packages.get(0);
    }

    /** The custom resource classes in {@code packageName}, sorted by kind. */
    List<ExistingKind> kinds(String packageName) {
        List<ExistingKind> kinds = new ArrayList<>();
        for (Path source : javaSources(packageDirectory(packageName))) {
            String text = read(source);
            if (text.contains("extends CustomResource<")) {
                String kind = source.getFileName().toString().replaceFirst("\\.java$", "");
                constant(GROUP, text).ifPresent(group -> kinds.add(new ExistingKind(kind, group,
                        constant(VERSION, text).orElse(""), constant(PLURAL, text).orElse(""),
                        text.contains("implements Namespaced"))));
            }
        }
        kinds.sort((a, b) -> a.kind().compareTo(b.kind()));
        return kinds;
    }

    Path packageDirectory(String packageName) {
        return mainSources().resolve(packageName.replace('.', '/'));
    }

    private static Optional<String> constant(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static List<Path> javaSources(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
