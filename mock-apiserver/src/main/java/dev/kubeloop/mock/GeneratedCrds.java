package dev.kubeloop.mock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The CRDs a build generated, found on the class path: fabric8's CRD generator writes one file per
 * custom resource, {@code META-INF/fabric8/<plural>.<group>-v1.yml}, into the classes of the
 * module that declares it. A project with two kinds has two; a list kept by hand is what went
 * stale when a second kind was added (issue 28), so the embedded API server and the test kit take
 * them all by default.
 *
 * <p>Looks in every class path root that has a {@code META-INF/fabric8} (directories and jars,
 * nested ones included as far as their {@link JarURLConnection} lists them); a name found in two
 * roots counts once, as {@link ClassLoader#getResource} would load it. Stateless.
 */
public final class GeneratedCrds {

    /** Where fabric8's generator writes the CRDs, relative to the classes. */
    public static final String DIRECTORY = "META-INF/fabric8";

    private GeneratedCrds() {
    }

    /**
     * The class path resource names of every generated {@code apiextensions.k8s.io/v1} CRD visible
     * to {@code classLoader}, sorted (so the order of creation does not depend on the class path's).
     */
    public static List<String> resources(ClassLoader classLoader) {
        TreeSet<String> names = new TreeSet<>();
        try {
            Enumeration<URL> roots = classLoader.getResources(DIRECTORY);
            while (roots.hasMoreElements()) {
                fileNames(roots.nextElement()).stream().filter(GeneratedCrds::isCrd)
                        .forEach(name -> names.add(DIRECTORY + "/" + name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + DIRECTORY + " on the class path", e);
        }
        return List.copyOf(names);
    }

    /** Only v1 CRDs: the generator can also write v1beta1 ones, which no supported API server serves. */
    static boolean isCrd(String fileName) {
        return fileName.endsWith("-v1.yml") && !fileName.contains("/");
    }

    private static List<String> fileNames(URL directory) throws IOException {
        if ("file".equals(directory.getProtocol())) {
            try (Stream<Path> files = Files.list(Path.of(directory.toURI()))) {
                return files.filter(Files::isRegularFile).map(file -> file.getFileName().toString()).toList();
            } catch (URISyntaxException e) {
                throw new IOException("Not a file URL: " + directory, e);
            }
        }
        URLConnection connection = directory.openConnection();
        if (connection instanceof JarURLConnection jar) {
            connection.setUseCaches(false); // a cached JarFile would stay open for the life of the JVM
            String prefix = jar.getEntryName() + "/";
            List<String> names = new ArrayList<>();
            try (JarFile file = jar.getJarFile()) {
                file.stream().map(entry -> entry.getName()).filter(name -> name.startsWith(prefix))
                        .map(name -> name.substring(prefix.length())).filter(name -> !name.isEmpty())
                        .forEach(names::add);
            }
            return names;
        }
        throw new IOException("Cannot list " + directory + ": neither a directory nor a jar");
    }
}
