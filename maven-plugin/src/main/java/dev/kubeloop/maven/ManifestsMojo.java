package dev.kubeloop.maven;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Writes the chart's generated files from the application's declarations: {@code rbac.yaml} (the
 * RBAC rules its reconcilers, leader election and sharding use, and what each chart option adds)
 * and {@code webhooks.yaml} (its webhook registrations). The application's context is prepared
 * from the project's runtime class path the way {@code spring-boot:process-aot} prepares it:
 * nothing connects to a cluster, nothing starts. With {@code check}, writes nothing and fails the
 * build when the files differ from what the code declares, naming each rule or webhook: the CI
 * form, for charts whose files are committed. docs/getting-started.md and docs/security.md.
 */
@Mojo(name = "manifests", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.RUNTIME, threadSafe = true)
public class ManifestsMojo extends AbstractMojo {

    private static final String DESCRIBER = "dev.kubeloop.autoconfigure.manifests.ManifestsDescriber";
    private static final String FILES = "dev.kubeloop.manifest.ManifestFiles";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** The application's {@code @SpringBootApplication} class. */
    @Parameter(property = "kubeloop.manifests.mainClass", required = true)
    private String mainClass;

    /** Where the files go: the chart's {@code files/kubeloop} directory. */
    @Parameter(property = "kubeloop.manifests.outputDirectory", defaultValue = "${project.basedir}/chart/files/kubeloop")
    private File outputDirectory;

    /**
     * Chart options that switch on more access, each with the application properties it sets as
     * {@code key=value} pairs separated by commas, e.g. {@code <tlsSecrets>sample.tls-secrets.watch=true</tlsSecrets>};
     * {@code leaderElection} and {@code sharding} are always described.
     */
    @Parameter
    private Map<String, String> options = new LinkedHashMap<>();

    /**
     * Application properties set in every description, for what a build must not start, e.g.
     * {@code <sample.demo>off</sample.demo>} (the sample's demo starts an embedded API server).
     */
    @Parameter
    private Map<String, String> applicationProperties = new LinkedHashMap<>();

    /** Compare instead of writing, and fail when the files differ from the code. */
    @Parameter(property = "kubeloop.manifests.check", defaultValue = "false")
    private boolean check;

    @Parameter(property = "kubeloop.manifests.skip", defaultValue = "false")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("kubeloop:manifests skipped");
            return;
        }
        Map<String, String> files;
        List<String> problems = new ArrayList<>();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(classPath(), ClassLoader.getPlatformClassLoader())) {
            thread.setContextClassLoader(loader);
            files = describe(loader);
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = outputDirectory.toPath().resolve(file.getKey());
                String present = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
                if (present.equals(file.getValue())) {
                    continue;
                }
                if (check) {
                    problems.addAll(compare(loader, project.getBasedir().toPath().relativize(path).toString(), present,
                            file.getValue()));
                } else {
                    Files.createDirectories(path.getParent());
                    Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
                    getLog().info("kubeloop:manifests wrote " + path);
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("kubeloop:manifests could not read or write " + outputDirectory, e);
        } finally {
            thread.setContextClassLoader(before);
        }
        if (!problems.isEmpty()) {
            throw new MojoFailureException("The chart's generated files do not match what the code declares:\n  "
                    + String.join("\n  ", problems) + "\nRun ./mvnw process-classes to write them from the code, "
                    + "and review the change (a new rule is a new privilege of the operator).");
        }
    }

    private URL[] classPath() throws MojoExecutionException {
        try {
            List<URL> urls = new ArrayList<>();
            for (String element : project.getRuntimeClasspathElements()) {
                urls.add(new File(element).toURI().toURL());
            }
            return urls.toArray(URL[]::new);
        } catch (MalformedURLException | org.apache.maven.artifact.DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("kubeloop:manifests cannot build the project's runtime class path", e);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> describe(ClassLoader loader) throws MojoExecutionException {
        Class<?> application;
        try {
            application = loader.loadClass(mainClass);
        } catch (ClassNotFoundException e) {
            throw new MojoExecutionException("kubeloop:manifests: mainClass " + mainClass + " is not on the project's "
                    + "class path; set <mainClass> (or -Dkubeloop.manifests.mainClass) to the @SpringBootApplication class", e);
        }
        try {
            return (Map<String, String>) loader.loadClass(DESCRIBER).getMethod("describe", Class.class, Map.class,
                    Map.class).invoke(null, application, applicationProperties, parsedOptions());
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            throw new MojoExecutionException("kubeloop:manifests needs kubeloop-spring-boot-autoconfigure of the same "
                    + "version on the project's runtime class path", e);
        } catch (InvocationTargetException e) {
            throw new MojoExecutionException("kubeloop:manifests could not describe " + mainClass + ": "
                    + e.getCause().getMessage(), e.getCause());
        }
    }

    @SuppressWarnings("unchecked")
    private List<String> compare(ClassLoader loader, String file, String present, String wanted)
            throws MojoExecutionException {
        try {
            return (List<String>) loader.loadClass(FILES).getMethod("check", String.class, String.class, String.class)
                    .invoke(null, file, present, wanted);
        } catch (ReflectiveOperationException e) {
            throw new MojoExecutionException("kubeloop:manifests could not compare " + file, e);
        }
    }

    /** {@code name → "k=v,k2=v2"} as {@code name → {k: v, k2: v2}}; a pair without '=' names the option. */
    Map<String, Map<String, String>> parsedOptions() throws MojoExecutionException {
        Map<String, Map<String, String>> parsed = new LinkedHashMap<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            Map<String, String> properties = new LinkedHashMap<>();
            for (String pair : option.getValue().split(",")) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    throw new MojoExecutionException("kubeloop:manifests: option <" + option.getKey() + "> must be "
                            + "key=value pairs separated by commas, not '" + option.getValue() + "'");
                }
                properties.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
            }
            parsed.put(option.getKey(), properties);
        }
        return parsed;
    }
}
