package dev.kubeloop.benchmarks.writes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The harness's side of the cluster: installs the Website CRD that the operator's jar carries,
 * makes namespaces, creates Websites and changes their spec as fast as a few parallel requests
 * go, and watches them converge ({@link Convergence}). Its client sends {@link #USER_AGENT}, so its
 * own requests are told apart from the operator's in the audit log.
 */
final class WebsiteFleet implements AutoCloseable {

    static final String USER_AGENT = "kubeloop-writes-harness";

    private static final String CRD = "META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml";
    /** Where the jar may carry it: the sample's build puts it at the top; a plain Boot jar would have it with its classes. */
    private static final List<String> CRD_IN_JAR = List.of(CRD, "BOOT-INF/classes/" + CRD);

    private final KubernetesClient client;
    private final CustomResourceDefinitionContext websites;
    /** The spec field holding the page: {@code html} before issue 18 renamed it {@code page} in v1. */
    private final String pageField;
    private final ExecutorService requests;

    WebsiteFleet(Path operatorJar, int parallel) throws IOException {
        Config config = Config.autoConfigure(null);
        config.setUserAgent(USER_AGENT);
        this.client = new KubernetesClientBuilder().withConfig(config).build();
        CustomResourceDefinition crd = crdOf(operatorJar);
        client.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
        client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).waitUntilCondition(
                installed -> installed != null && installed.getStatus() != null
                        && installed.getStatus().getConditions().stream().anyMatch(
                                c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())),
                1, TimeUnit.MINUTES);
        CustomResourceDefinitionVersion storage = crd.getSpec().getVersions().stream()
                .filter(CustomResourceDefinitionVersion::getStorage).findFirst().orElseThrow();
        this.websites = new CustomResourceDefinitionContext.Builder().withGroup(crd.getSpec().getGroup())
                .withVersion(storage.getName()).withKind(crd.getSpec().getNames().getKind())
                .withPlural(crd.getSpec().getNames().getPlural()).withScope(crd.getSpec().getScope()).build();
        this.pageField = storage.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties()
                .containsKey("page") ? "page" : "html";
        AtomicInteger threadNumber = new AtomicInteger();
        this.requests = Executors.newFixedThreadPool(parallel,
                task -> new Thread(task, "website-writer-" + threadNumber.incrementAndGet()));
    }

    /** The CRD the operator under test was built with, so a changed schema needs no change here. */
    private CustomResourceDefinition crdOf(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = CRD_IN_JAR.stream().map(zip::getEntry).filter(Objects::nonNull).findFirst()
                    .orElseThrow(() -> new IllegalStateException(jar + " has none of " + CRD_IN_JAR));
            try (InputStream in = zip.getInputStream(entry)) {
                return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
            }
        }
    }

    String masterUrl() {
        return client.getMasterUrl().toString();
    }

    void createNamespace(String namespace) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
                .create();
    }

    /** Starts watching the namespace's Websites; the caller closes it. */
    Convergence watch(String namespace) {
        return new Convergence(client.genericKubernetesResources(websites).inNamespace(namespace));
    }

    /** Creates the Websites, {@code parallel} requests at a time; returns once all were accepted. */
    void create(String namespace, List<String> names, Duration timeout) throws Exception {
        List<Future<?>> creates = new ArrayList<>(names.size());
        for (String name : names) {
            GenericKubernetesResource site = new GenericKubernetesResourceBuilder()
                    .withApiVersion(websites.getGroup() + "/" + websites.getVersion()).withKind(websites.getKind())
                    .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("replicas", 1, pageField, page(name, 0)))
                    .build();
            creates.add(requests.submit(() -> client.genericKubernetesResources(websites).inNamespace(namespace)
                    .resource(site).create()));
        }
        awaitAll(creates, timeout);
    }

    /**
     * Changes the page ({@code spec.page}, or {@code spec.html} before issue 18) {@code changes} times, round robin over {@code names} (change i goes to
     * {@code names[i % size]}, so one object's changes never overlap), {@code parallel} requests at a
     * time, each a JSON merge patch (no resourceVersion: the harness never conflicts); returns once
     * all were accepted.
     */
    void change(String namespace, List<String> names, int changes, Duration timeout) throws Exception {
        List<Future<?>> patches = new ArrayList<>(changes);
        for (int i = 0; i < changes; i++) {
            String name = names.get(i % names.size());
            String patch = "{\"spec\":{\"" + pageField + "\":\"" + page(name, 1 + i / names.size()) + "\"}}";
            patches.add(requests.submit(() -> client.genericKubernetesResources(websites).inNamespace(namespace)
                    .withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch)));
        }
        awaitAll(patches, timeout);
    }

    private static String page(String name, int edit) {
        return "<h1>" + name + "</h1><p>edit " + edit + "</p>";
    }

    private static void awaitAll(List<Future<?>> futures, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Future<?> future : futures) {
            future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void close() {
        requests.shutdownNow();
        client.close();
    }
}
