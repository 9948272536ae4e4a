package dev.kubeloop.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package rules of {@code docs/architecture.md}, checked on the compiled classes (imports,
 * fully qualified uses, method signatures, annotations: every dependency the bytecode has):
 * dependencies point down only, no two packages depend on each other in a cycle, and what must
 * stay free of Spring, Micrometer or the runtime's machinery does.
 */
@AnalyzeClasses(packages = "dev.kubeloop", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    private static final String API = "dev.kubeloop.api..";
    private static final String QUEUE = "dev.kubeloop.queue..";
    private static final String RUNTIME = "dev.kubeloop.runtime..";
    private static final String WEBHOOK = "dev.kubeloop.webhook..";
    private static final String SHARDING = "dev.kubeloop.sharding..";
    private static final String[] AUTOCONFIGURE_CONCERNS = {"dev.kubeloop.autoconfigure.controller..",
        "dev.kubeloop.autoconfigure.leader..", "dev.kubeloop.autoconfigure.sharding..",
        "dev.kubeloop.autoconfigure.webhook..", "dev.kubeloop.autoconfigure.metrics..",
        "dev.kubeloop.autoconfigure.health..", "dev.kubeloop.autoconfigure.endpoint..",
        "dev.kubeloop.autoconfigure.tracing..", "dev.kubeloop.autoconfigure.manifests.."};

    /** Every package of the library is a slice; none may reach itself again through others. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.kubeloop.(**)").should().beFreeOfCycles();

    /**
     * The Spring glue, one package per concern, points one way too: the shared helpers of
     * {@code dev.kubeloop.autoconfigure} under everything; {@code controller} under every other
     * concern; {@code sharding} under {@code leader} (leader election backs off when sharding is on);
     * {@code health} under {@code webhook}; {@code manifests} on top. Named apart from the rule above
     * so that a cycle here reads as one in the glue.
     */
    @ArchTest
    static final ArchRule autoconfigurePackagesHaveNoCycles = slices().matching("dev.kubeloop.autoconfigure.(**)")
            .should().beFreeOfCycles();

    /** The shared helpers know no concern: every concern may use them. */
    @ArchTest
    static final ArchRule autoconfigureHelpersKnowNoConcern = noClasses().that()
            .resideInAPackage("dev.kubeloop.autoconfigure").should().dependOnClassesThat()
            .resideInAnyPackage(AUTOCONFIGURE_CONCERNS);

    /** The work queue is plain Java: it imports the JDK and itself, nothing else. */
    @ArchTest
    static final ArchRule queueUsesOnlyTheJdk = classes().that().resideInAPackage(QUEUE).should()
            .onlyDependOnClassesThat().resideInAnyPackage("java..", QUEUE);

    /**
     * What users implement and call depends on the fabric8 model and client interfaces, SLF4J and
     * JSpecify's nullness annotations only: no runtime machinery, no Spring, no Micrometer, no fabric8
     * implementation classes.
     */
    @ArchTest
    static final ArchRule apiUsesNoMachinery = classes().that().resideInAPackage(API).should()
            .onlyDependOnClassesThat().resideInAnyPackage("java..", API, "io.fabric8.kubernetes.api..",
                    "io.fabric8.kubernetes.client", "io.fabric8.kubernetes.client.dsl..", "org.slf4j..",
                    "com.fasterxml.jackson.annotation..", "org.jspecify.annotations..");

    /**
     * The runtime, leader election, sharding, the webhook server and the manifest model run in any
     * Java application: no Spring, no Micrometer.
     */
    @ArchTest
    static final ArchRule runtimeUsesNoSpringAndNoMicrometer = noClasses().that().resideInAnyPackage(RUNTIME,
            "dev.kubeloop.leader..", SHARDING, "dev.kubeloop.introspection..", "dev.kubeloop.manifest..", WEBHOOK)
            .should().dependOnClassesThat()
            .resideInAnyPackage("org.springframework..", "io.micrometer..");

    /**
     * The webhook server is independent of the web stack and of the controllers: the JDK, Netty
     * (its transport: TLS and HTTP/1.1 on event loops), the user API, the settings catalog, the
     * fabric8 model and its JSON (Jackson 2 and zjsonpatch), SLF4J.
     */
    @ArchTest
    static final ArchRule webhookServerUsesOnlyTheJdkTheApiAndFabric8sModel = classes().that()
            .resideInAPackage(WEBHOOK).should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax..",
                    "io.netty..", API, WEBHOOK, "dev.kubeloop.runtime", "io.fabric8.kubernetes.api..",
                    "io.fabric8.kubernetes.client.utils..", "io.fabric8.zjsonpatch..", "com.fasterxml.jackson..",
                    "org.slf4j..");

    /** Metrics and tracing use Micrometer, never Spring; health uses Spring Boot's health API only. */
    @ArchTest
    static final ArchRule metricsUseNoSpring = noClasses().that().resideInAnyPackage("dev.kubeloop.metrics..",
            "dev.kubeloop.observation..").should().dependOnClassesThat().resideInAnyPackage("org.springframework..");

    @ArchTest
    static final ArchRule healthUsesOnlySpringBootsHealthApi = classes().that()
            .resideInAPackage("dev.kubeloop.health..").should().onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "org.slf4j..", "dev.kubeloop..", "io.fabric8..",
                    "org.springframework.boot.health.contributor..");

    /**
     * The layers, bottom up, as docs/architecture.md draws them. Within the runtime: the cache knows
     * no handler, the handler no controller, the controller no manager.
     */
    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("api").definedBy(API)
            .layer("queue").definedBy(QUEUE)
            .layer("runtime base").definedBy("dev.kubeloop.runtime")
            .layer("cache").definedBy("dev.kubeloop.runtime.cache..")
            .layer("client").definedBy("dev.kubeloop.runtime.client..")
            .layer("event").definedBy("dev.kubeloop.runtime.event..")
            .layer("handler").definedBy("dev.kubeloop.runtime.handler..")
            .layer("controller").definedBy("dev.kubeloop.runtime.controller..")
            .layer("manager").definedBy("dev.kubeloop.runtime.manager..")
            .layer("leader").definedBy("dev.kubeloop.leader..")
            .layer("sharding").definedBy(SHARDING)
            .layer("webhook").definedBy(WEBHOOK)
            .layer("manifest").definedBy("dev.kubeloop.manifest..")
            .layer("metrics").definedBy("dev.kubeloop.metrics..")
            .layer("observation").definedBy("dev.kubeloop.observation..")
            .layer("health").definedBy("dev.kubeloop.health..")
            .layer("introspection").definedBy("dev.kubeloop.introspection..")
            .layer("autoconfigure").definedBy("dev.kubeloop.autoconfigure..")
            .whereLayer("autoconfigure").mayNotBeAccessedByAnyLayer()
            .whereLayer("manifest").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("introspection").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("health").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("metrics").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("observation").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("leader").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("sharding").mayOnlyBeAccessedByLayers("autoconfigure")
            .whereLayer("webhook").mayOnlyBeAccessedByLayers("metrics", "health", "manifest", "autoconfigure")
            .whereLayer("manager").mayOnlyBeAccessedByLayers("leader", "sharding", "metrics", "health",
                    "introspection", "autoconfigure")
            .whereLayer("controller").mayOnlyBeAccessedByLayers("manager", "leader", "sharding", "metrics", "health",
                    "introspection", "manifest", "autoconfigure")
            .whereLayer("handler").mayOnlyBeAccessedByLayers("controller", "manager")
            .whereLayer("event").mayOnlyBeAccessedByLayers("controller", "manager")
            .whereLayer("client").mayOnlyBeAccessedByLayers("controller", "manager")
            .whereLayer("cache").mayOnlyBeAccessedByLayers("handler", "controller", "manager", "leader", "sharding", "metrics",
                    "health", "introspection", "autoconfigure")
            .whereLayer("runtime base").mayOnlyBeAccessedByLayers("cache", "client", "event", "handler", "controller",
                    "manager", "leader", "sharding", "webhook", "metrics", "observation", "health", "introspection",
                    "manifest", "autoconfigure")
            .whereLayer("queue").mayOnlyBeAccessedByLayers("runtime base", "cache", "client", "event", "handler",
                    "controller", "manager", "leader", "sharding", "metrics", "health", "introspection", "autoconfigure");
}
