package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every CRD the build generated is found, in class directories and jars alike, without a list: a
 * second kind in a project needs no edit where the CRDs are created.
 */
class GeneratedCrdsTest {

    @TempDir
    Path temp;

    @Test
    void everyV1CrdOfEveryClassPathRootIsFoundOnceSorted() throws IOException {
        Files.writeString(classesWithTwoCrds().resolve("gizmos.example.com-v1beta1.yml"), "old API, not served");
        Path jar = jar("gizmos.example.com-v1.yml", "backups.example.com-v1.yml");

        try (URLClassLoader loader = loader(temp.resolve("classes"), jar)) {
            assertThat(GeneratedCrds.resources(loader)).containsExactly(
                    "META-INF/fabric8/backups.example.com-v1.yml",
                    "META-INF/fabric8/clusterthings.example.com-v1.yml",
                    "META-INF/fabric8/gizmos.example.com-v1.yml");
        }
    }

    @Test
    void theEmbeddedServerCreatesThemAllAndServesEachKind() throws IOException {
        classesWithTwoCrds();

        try (URLClassLoader loader = loader(temp.resolve("classes"));
                EmbeddedApiServer server = EmbeddedApiServer.start().createGeneratedCrds(loader)) {
            assertThat(server.client().apiextensions().v1().customResourceDefinitions().list().getItems())
                    .extracting(crd -> crd.getMetadata().getName())
                    .containsExactlyInAnyOrder("gizmos.example.com", "clusterthings.example.com");
        }
    }

    @Test
    void noGeneratedCrdIsAnErrorThatSaysToBuildWithMaven() throws IOException {
        try (URLClassLoader loader = loader(temp)) {
            assertThatThrownBy(() -> EmbeddedApiServer.start().createGeneratedCrds(loader))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No CRD in META-INF/fabric8").hasMessageContaining("build with Maven");
        }
    }

    /** temp/classes as the generator leaves it for a project with two kinds; returns its META-INF/fabric8. */
    private Path classesWithTwoCrds() throws IOException {
        Path classes = Files.createDirectories(temp.resolve("classes/META-INF/fabric8"));
        Files.writeString(classes.resolve("gizmos.example.com-v1.yml"), crd("Gizmo", "gizmos", "Namespaced"));
        Files.writeString(classes.resolve("clusterthings.example.com-v1.yml"),
                crd("ClusterThing", "clusterthings", "Cluster"));
        return classes;
    }

    private Path jar(String... crdFileNames) throws IOException {
        Path jar = temp.resolve("crds.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/fabric8/")); // as Maven's jar plugin writes: getResources needs it
            out.closeEntry();
            for (String name : crdFileNames) {
                out.putNextEntry(new JarEntry("META-INF/fabric8/" + name));
                out.write(crd("Backup", "backups", "Namespaced").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/fabric8/nested/ignored-v1.yml"));
            out.write('x');
            out.closeEntry();
        }
        return jar;
    }

    private static URLClassLoader loader(Path... roots) throws IOException {
        URL[] urls = new URL[roots.length];
        for (int i = 0; i < roots.length; i++) {
            urls[i] = roots[i].toUri().toURL();
        }
        return new URLClassLoader(urls, null); // no parent: only these roots, not the test's own class path
    }

    private static String crd(String kind, String plural, String scope) {
        return """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: %2$s.example.com
                spec:
                  group: example.com
                  scope: %3$s
                  names: {kind: %1$s, plural: %2$s, singular: %4$s}
                  versions:
                    - name: v1
                      served: true
                      storage: true
                      schema:
                        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """.formatted(kind, plural, scope, kind.toLowerCase(java.util.Locale.ROOT));
    }
}
