package dev.kubeloop.maven;

import dev.kubeloop.maven.ProjectSources.ExistingKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Adds a kind, or webhooks for a kind, to an existing generated project: the files the archetype
 * would have written for it, and nothing else. Everything that depends on the set of kinds reads
 * it at build or run time instead (the CRDs in META-INF/fabric8, the chart's files/, the test kit),
 * so no existing file is edited; an existing file is never overwritten (the whole request is
 * refused, naming the files, before anything is written).
 *
 * <p>Stateless apart from the project directory; one instance per goal execution.
 */
final class Scaffold {

    /** What {@code create-api} was asked for; blank or null values take the project's defaults. */
    record ApiRequest(String kind, String packageName, String group, String version, String plural, boolean namespaced) {
    }

    private final Path basedir;
    private final ProjectSources sources;
    private final Consumer<String> log;

    Scaffold(Path basedir, Consumer<String> log) {
        this.basedir = basedir;
        this.sources = new ProjectSources(basedir);
        this.log = log;
    }

    /** {@code kubeloop:create-api}: the kind's classes, reconciler, test and example. */
    List<Path> createApi(ApiRequest request) throws ScaffoldException {
        String kind = checkedKind(request.kind());
        String packageName = blank(request.packageName()) ? sources.applicationPackage() : request.packageName();
        List<ExistingKind> existing = sources.kinds(packageName);
        String group = KindNames.group(blank(request.group()) ? defaultGroup(existing) : request.group());
        String version = KindNames.version(blank(request.version()) ? "v1alpha1" : request.version());
        String plural = KindNames.plural(blank(request.plural()) ? KindNames.defaultPlural(kind) : request.plural());
        for (ExistingKind other : existing) {
            // the same kind again is refused below, naming its files
            if (!other.kind().equals(kind) && other.plural().equals(plural) && other.group().equals(group)) {
                throw new ScaffoldException("-Dplural=" + plural + ": " + other.kind() + " already has the resource "
                        + plural + "." + group + "; choose another plural or -DcrdGroup");
            }
        }
        Map<String, String> properties = properties(kind, packageName, group, version, plural, request.namespaced());
        properties.put("webhooks", "false"); // none yet: kubeloop:create-webhook adds them
        return write(KindTemplates.API, properties);
    }

    /** {@code kubeloop:create-webhook}: a validator and/or a defaulter for an existing kind, and their test. */
    List<Path> createWebhook(String requestedKind, String requestedPackage, boolean validator, boolean defaulter)
            throws ScaffoldException {
        String kind = checkedKind(requestedKind);
        if (!validator && !defaulter) {
            throw new ScaffoldException("-Dvalidator=false and -Ddefaulter=false leave nothing to create: "
                    + "keep at least one");
        }
        String packageName = blank(requestedPackage) ? sources.applicationPackage() : requestedPackage;
        ExistingKind existing = sources.kinds(packageName).stream().filter(k -> k.kind().equals(kind)).findFirst()
                .orElseThrow(() -> new ScaffoldException("-Dkind=" + kind + ": no custom resource class " + kind
                        + " (with the GROUP, VERSION and PLURAL constants create-api writes) in "
                        + basedir.relativize(sources.packageDirectory(packageName))
                        + "; add the kind first: ./mvnw kubeloop:create-api -Dkind=" + kind));
        Map<String, String> properties = properties(kind, packageName, existing.group(), existing.version(),
                existing.plural(), existing.namespaced());
        properties.put("webhooks", "true");
        properties.put("validator", Boolean.toString(validator));
        properties.put("defaulter", Boolean.toString(defaulter));
        List<String> templates = new ArrayList<>();
        if (validator) {
            templates.add(KindTemplates.VALIDATOR);
        }
        if (defaulter) {
            templates.add(KindTemplates.DEFAULTER);
        }
        templates.add(KindTemplates.WEBHOOKS_TEST);
        return write(templates, properties);
    }

    private static String checkedKind(String kind) throws ScaffoldException {
        KindNames.kind(kind);
        Set<String> imported = KindTemplates.importedNames();
        for (String className : KindTemplates.classNames(kind)) {
            if (imported.contains(className)) {
                throw new ScaffoldException("-Dkind=" + kind + " would generate the class " + className
                        + ", which the generated code also imports from a library; choose another kind name");
            }
        }
        return kind;
    }

    /** The group every existing kind shares, or a request to name one. */
    private static String defaultGroup(List<ExistingKind> existing) throws ScaffoldException {
        List<String> groups = existing.stream().map(ExistingKind::group).distinct().toList();
        if (groups.size() != 1) {
            throw new ScaffoldException("-DcrdGroup is required: the project's kinds have " + groups.size()
                    + " API groups " + groups + " to take it from (-DcrdGroup=demo.example.com)");
        }
        return groups.get(0);
    }

    private static Map<String, String> properties(String kind, String packageName, String group, String version,
            String plural, boolean namespaced) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("kind", kind);
        properties.put("package", packageName);
        properties.put("crdGroup", group);
        properties.put("crdVersion", version);
        properties.put("plural", plural);
        properties.put("namespaced", Boolean.toString(namespaced));
        return properties;
    }

    private List<Path> write(List<String> templates, Map<String, String> properties) throws ScaffoldException {
        KindTemplates renderer = new KindTemplates();
        Map<Path, String> files = new LinkedHashMap<>();
        List<Path> existing = new ArrayList<>();
        for (String template : templates) {
            Path target = basedir.resolve(KindTemplates.target(template, properties.get("kind"), properties.get("package")));
            if (Files.exists(target)) {
                existing.add(basedir.relativize(target));
            }
            files.put(target, renderer.render(template, properties));
        }
        if (!existing.isEmpty()) {
            throw new ScaffoldException("Not overwriting " + existing + ": -Dkind=" + properties.get("kind")
                    + " has them already; delete them first to generate them again");
        }
        try {
            for (Map.Entry<Path, String> file : files.entrySet()) {
                Files.createDirectories(file.getKey().getParent());
                // CREATE_NEW: a file that appeared since the check above is still not overwritten
                Files.writeString(file.getKey(), file.getValue(), StandardOpenOption.CREATE_NEW);
                log.accept("Created " + basedir.relativize(file.getKey()));
            }
        } catch (IOException e) {
            throw new ScaffoldException("Cannot write " + e.getMessage() + ": " + e);
        }
        return List.copyOf(files.keySet());
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
