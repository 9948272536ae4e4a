package dev.kubeloop.maven;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.velocity.VelocityContext;
import org.apache.velocity.app.VelocityEngine;

/**
 * The archetype's per-kind templates (copied into this plugin at build time from
 * {@code archetype/src/main/resources/archetype-resources}, never kept twice), rendered with the
 * engine and the properties the archetype plugin uses, so that a kind added later is written
 * exactly as the project's first one was.
 *
 * <p>Thread-safety: a new engine per instance; an instance is used by one goal execution.
 */
final class KindTemplates {

    static final String LOCATION = "templates/";

    /** The kind itself: its class, spec and status, its reconciler and test, an example manifest. */
    static final List<String> API = List.of("src/main/java/__kind__.java", "src/main/java/__kind__Spec.java",
            "src/main/java/__kind__Status.java", "src/main/java/__kind__Reconciler.java",
            "src/test/java/__kind__ReconcilerTest.java", "examples/__kind__.yaml");
    static final String VALIDATOR = "src/main/java/__kind__Validator.java";
    static final String DEFAULTER = "src/main/java/__kind__Defaulter.java";
    static final String WEBHOOKS_TEST = "src/test/java/__kind__WebhooksTest.java";

    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?[\\w.]+\\.(\\w+)\\s*;");

    private final VelocityEngine engine = new VelocityEngine();

    KindTemplates() {
        engine.init();
    }

    /** Where a template goes in the project: the kind for {@code __kind__}, Java sources in the package. */
    static Path target(String template, String kind, String packageName) {
        if (template.startsWith("examples/")) { // the archetype's post-generate script lowers it too
            return Path.of("examples", kind.toLowerCase(Locale.ROOT) + ".yaml");
        }
        String root = template.substring(0, template.lastIndexOf('/'));
        String file = template.substring(template.lastIndexOf('/') + 1).replace("__kind__", kind);
        return Path.of(root).resolve(packageName.replace('.', '/')).resolve(file);
    }

    /** {@code template} filled in with {@code properties} (the archetype's names: kind, package, crdGroup...). */
    String render(String template, Map<String, String> properties) {
        VelocityContext context = new VelocityContext(new LinkedHashMap<>(properties));
        StringWriter out = new StringWriter();
        engine.evaluate(context, out, template, text(template));
        return out.toString();
    }

    /**
     * Simple names the templates import: a kind (or a class generated for it) of the same name
     * would not compile, so it is refused up front. Read from the templates, so it stays true.
     */
    static Set<String> importedNames() {
        Set<String> names = new TreeSet<>();
        for (String template : all()) {
            Matcher matcher = IMPORT.matcher(text(template));
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        }
        return names;
    }

    /** The class names generated for a kind: {@code __kind__} with the template's suffix. */
    static Set<String> classNames(String kind) {
        Set<String> names = new TreeSet<>();
        for (String template : all()) {
            if (template.endsWith(".java")) {
                names.add(template.substring(template.lastIndexOf('/') + 1).replace(".java", "").replace("__kind__", kind));
            }
        }
        return names;
    }

    static List<String> all() {
        return Stream.concat(API.stream(), Stream.of(VALIDATOR, DEFAULTER, WEBHOOKS_TEST)).toList();
    }

    private static String text(String template) {
        try (InputStream in = KindTemplates.class.getResourceAsStream(LOCATION + template)) {
            if (in == null) {
                throw new IllegalStateException("The plugin lacks the archetype template " + template
                        + ": it was built without archetype/src/main/resources/archetype-resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
