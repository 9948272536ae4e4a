package dev.kubeloop.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * create-api and create-webhook in a project shaped like a generated one: the archetype's templates
 * filled in for the new kind, defaults read from the project, bad names refused naming the
 * property, and nothing overwritten.
 */
class ScaffoldTest {

    @TempDir
    Path project;

    private final List<String> log = new ArrayList<>();
    private Scaffold scaffold;

    @BeforeEach
    void aGeneratedProjectWithOneKind() throws IOException {
        Path sources = Files.createDirectories(project.resolve("src/main/java/com/example/greeting"));
        Files.writeString(sources.resolve("OperatorApplication.java"), """
                package com.example.greeting;

                @SpringBootApplication
                public class OperatorApplication {
                }
                """);
        Files.writeString(sources.resolve("Greeting.java"), """
                package com.example.greeting;

                public class Greeting extends CustomResource<GreetingSpec, GreetingStatus> implements Namespaced {
                    public static final String GROUP = "demo.example.com";
                    public static final String VERSION = "v1alpha1";
                    public static final String PLURAL = "greetings";
                }
                """);
        scaffold = new Scaffold(project, log::add);
    }

    @Test
    void createApiWritesTheKindItsReconcilerTestAndExampleInTheApplicationsPackageAndGroup() throws Exception {
        List<Path> written = scaffold.createApi(request("Backup", null, null, true));

        assertThat(written).extracting(path -> project.relativize(path).toString().replace('\\', '/')).containsExactly(
                "src/main/java/com/example/greeting/Backup.java", "src/main/java/com/example/greeting/BackupSpec.java",
                "src/main/java/com/example/greeting/BackupStatus.java",
                "src/main/java/com/example/greeting/BackupReconciler.java",
                "src/test/java/com/example/greeting/BackupReconcilerTest.java", "examples/backup.yaml");
        String kind = Files.readString(project.resolve("src/main/java/com/example/greeting/Backup.java"));
        assertThat(kind).startsWith("package com.example.greeting;")
                .contains("GROUP = \"demo.example.com\"", "VERSION = \"v1alpha1\"", "PLURAL = \"backups\"",
                        "extends CustomResource<BackupSpec, BackupStatus> implements Namespaced");
        assertThat(Files.readString(project.resolve("src/main/java/com/example/greeting/BackupReconciler.java")))
                .contains("@Reconciler(name = \"backup\", owns = ConfigMap.class, deletes = ConfigMap.class)");
        assertThat(Files.readString(project.resolve("examples/backup.yaml")))
                .contains("apiVersion: demo.example.com/v1alpha1", "kind: Backup", "name: hello-backup");
        assertThat(log).hasSize(6).allSatisfy(line -> assertThat(line).startsWith("Created "));
        assertNothingLeftForVelocity();
    }

    @Test
    void aClusterScopedKindInItsOwnGroupAndVersion() throws Exception {
        scaffold.createApi(new Scaffold.ApiRequest("ClusterBackup", null, "ops.example.com", "v1", "clusterbackups", false));

        assertThat(Files.readString(project.resolve("src/main/java/com/example/greeting/ClusterBackup.java")))
                .contains("GROUP = \"ops.example.com\"", "VERSION = \"v1\"")
                .doesNotContain("Namespaced");
        assertThat(Files.readString(project.resolve("src/main/java/com/example/greeting/ClusterBackupReconciler.java")))
                .contains("@Value(\"${operator.namespace:default}\")");
        assertNothingLeftForVelocity();
    }

    @Test
    void existingFilesAreNeverOverwrittenAndNothingIsWrittenThen() throws Exception {
        Path example = Files.createDirectories(project.resolve("examples")).resolve("backup.yaml");
        Files.writeString(example, "mine");

        assertThatThrownBy(() -> scaffold.createApi(request("Backup", null, null, true)))
                .isInstanceOf(ScaffoldException.class)
                .hasMessageContaining("Not overwriting [examples/backup.yaml]");
        assertThat(Files.readString(example)).isEqualTo("mine");
        assertThat(project.resolve("src/main/java/com/example/greeting/Backup.java")).doesNotExist();

        scaffold.createApi(request("Other", null, null, true));
        assertThatThrownBy(() -> scaffold.createApi(request("Other", null, null, true)))
                .hasMessageContaining("Not overwriting").hasMessageContaining("Other.java");
    }

    @Test
    void badNamesAreRefusedNamingTheProperty() {
        assertThatThrownBy(() -> scaffold.createApi(request("backup", null, null, true)))
                .hasMessageContaining("-Dkind=backup is not a kind: an UpperCamel Java class name");
        assertThatThrownBy(() -> scaffold.createApi(request("Back-up", null, null, true)))
                .hasMessageContaining("-Dkind=Back-up is not a kind");
        assertThatThrownBy(() -> scaffold.createApi(request("B" + "a".repeat(63), null, null, true)))
                .hasMessageContaining("at most 63 characters");
        assertThatThrownBy(() -> scaffold.createApi(request(null, null, null, true)))
                .hasMessageContaining("-Dkind is required");
        // the generated code imports these: the class would not compile
        assertThatThrownBy(() -> scaffold.createApi(request("ConfigMap", null, null, true)))
                .hasMessageContaining("would generate the class ConfigMap");
        assertThatThrownBy(() -> scaffold.createApi(request("Resource", null, null, true)))
                .hasMessageContaining("would generate the class ResourceReconciler");
        assertThatThrownBy(() -> scaffold.createApi(request("Backup", "Backups", null, true)))
                .hasMessageContaining("-Dplural=Backups is not a resource name");
        assertThatThrownBy(() -> scaffold.createApi(request("Backup", "greetings", null, true)))
                .hasMessageContaining("Greeting already has the resource greetings.demo.example.com");
        assertThatThrownBy(() -> scaffold.createApi(request("Backup", null, "example", true)))
                .hasMessageContaining("-DcrdGroup=example is not an API group");
        assertThatThrownBy(() -> scaffold.createApi(new Scaffold.ApiRequest("Backup", null, null, "1", null, true)))
                .hasMessageContaining("-DcrdVersion=1 is not an API version");
        assertThat(project.resolve("examples")).doesNotExist();
    }

    @Test
    void createWebhookWritesTheValidatorTheDefaulterAndTheirTestForAnExistingKind() throws Exception {
        scaffold.createApi(request("Backup", null, null, true));

        List<Path> written = scaffold.createWebhook("Backup", null, true, true);

        assertThat(written).extracting(path -> path.getFileName().toString())
                .containsExactly("BackupValidator.java", "BackupDefaulter.java", "BackupWebhooksTest.java");
        assertThat(Files.readString(project.resolve("src/main/java/com/example/greeting/BackupValidator.java")))
                .contains("implements Validator<Backup>", "/validate-demo-example-com-v1alpha1-backup");
        assertThat(Files.readString(project.resolve("src/test/java/com/example/greeting/BackupWebhooksTest.java")))
                .contains(".defaulter(Backup.class, new BackupDefaulter())", ".validator(Backup.class, new BackupValidator())",
                        "anEmptyMessageIsFilledInByTheDefaulter", "aBlankMessageIsRefused");
        assertNothingLeftForVelocity();
    }

    @Test
    void aValidatorAloneGetsATestOfTheValidatorAlone() throws Exception {
        List<Path> written = scaffold.createWebhook("Greeting", null, true, false);

        assertThat(written).extracting(path -> path.getFileName().toString())
                .containsExactly("GreetingValidator.java", "GreetingWebhooksTest.java");
        assertThat(Files.readString(project.resolve("src/test/java/com/example/greeting/GreetingWebhooksTest.java")))
                .contains(".validator(Greeting.class", "aBlankMessageIsRefused")
                .doesNotContain("Defaulter", "anEmptyMessageIsFilledInByTheDefaulter");
        assertNothingLeftForVelocity();
    }

    @Test
    void createWebhookForAnUnknownKindSaysToCreateItFirst() {
        assertThatThrownBy(() -> scaffold.createWebhook("Backup", null, true, true))
                .hasMessageContaining("-Dkind=Backup: no custom resource class Backup")
                .hasMessageContaining("./mvnw kubeloop:create-api -Dkind=Backup");
        assertThatThrownBy(() -> scaffold.createWebhook("Greeting", null, false, false))
                .hasMessageContaining("leave nothing to create");
    }

    @Test
    void withoutOneApplicationClassThePackageMustBeNamed() throws Exception {
        Files.delete(project.resolve("src/main/java/com/example/greeting/OperatorApplication.java"));

        assertThatThrownBy(() -> scaffold.createApi(request("Backup", null, null, true)))
                .hasMessageContaining("-Dpackage is required here: 0 @SpringBootApplication classes");
        scaffold.createApi(new Scaffold.ApiRequest("Backup", "com.example.greeting", null, null, null, true));
        assertThat(project.resolve("src/main/java/com/example/greeting/Backup.java")).exists();
    }

    private static Scaffold.ApiRequest request(String kind, String plural, String group, boolean namespaced) {
        return new Scaffold.ApiRequest(kind, null, group, null, plural, namespaced);
    }

    /** No Velocity reference or directive survives (what archetype-check.sh greps generated projects for). */
    private void assertNothingLeftForVelocity() throws IOException {
        try (Stream<Path> files = Files.walk(project)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(file)).as(file.toString())
                        .doesNotContainPattern("\\$\\{(symbol_dollar|package|kind|crdGroup|crdVersion|plural)")
                        .doesNotContainPattern("(?m)^#(if|else|end|set)");
            }
        }
    }
}
