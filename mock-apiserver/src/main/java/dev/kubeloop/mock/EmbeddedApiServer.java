package dev.kubeloop.mock;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An API server in the JVM, for demos and tests: fabric8's mock server in CRUD mode on a free
 * loopback port (plain HTTP), taught server-side apply ({@link ServerSideApplyDispatcher}) and API
 * discovery ({@link DiscoveryDispatcher}, so that {@code kubectl --server <url>} works). It stores
 * and serves objects with watches and the status subresource of the CRDs created through it; it
 * runs no controllers (no pods, no garbage collection), has no admission and no RBAC.
 *
 * <pre>{@code
 * try (EmbeddedApiServer server = EmbeddedApiServer.start().createGeneratedCrds(classLoader)) {
 *     KubernetesClient client = server.client();   // default namespace "test"
 * }
 * }</pre>
 *
 * <p>Thread-safe: the mock serializes its writes; {@link #client()} is shared and closed by {@link #close()}.
 */
public final class EmbeddedApiServer implements AutoCloseable {

    /** Kept so the level sticks: the mock logs every request at INFO through java.util.logging. */
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedApiServer() {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher(List.of());
        SetBasedSelectors.install(crud); // key in (a,b): what a sharded operator's caches select with
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new DiscoveryDispatcher(new ServerSideApplyDispatcher(
                new DeletePreconditionsDispatcher(new WatchClosingOffTheEventLoop(crud, crud)))), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient();
    }

    /**
     * Why a real cluster counts as configured, so that an embedded server should not stand in for
     * it; empty when none is (what a demo or a generated project's "run it" mode asks). Read from
     * {@code property} (environment variables and system properties, as Spring's
     * {@code Environment} has them): inside a pod ({@code KUBERNETES_SERVICE_HOST}),
     * {@code kubernetes.master}, a {@code KUBECONFIG} naming an existing file, or
     * {@code ~/.kube/config} ({@code user.home}). fabric8 reads the same places.
     */
    public static Optional<String> configuredCluster(UnaryOperator<String> property) {
        if (property.apply("KUBERNETES_SERVICE_HOST") != null) {
            return Optional.of("running in a pod (KUBERNETES_SERVICE_HOST is set)");
        }
        if (property.apply("kubernetes.master") != null || property.apply("KUBERNETES_MASTER") != null) {
            return Optional.of("kubernetes.master is set");
        }
        String kubeconfig = property.apply("KUBECONFIG") != null ? property.apply("KUBECONFIG") : property.apply("kubeconfig");
        if (kubeconfig != null && !kubeconfig.isBlank()) {
            // a KUBECONFIG naming no existing file configures nothing, for fabric8 as for kubectl
            return Arrays.stream(kubeconfig.split(File.pathSeparator))
                    .anyMatch(file -> !file.isBlank() && Files.isRegularFile(Path.of(file)))
                    ? Optional.of("KUBECONFIG points at " + kubeconfig) : Optional.empty();
        }
        String home = property.apply("user.home");
        Path config = home == null ? null : Path.of(home, ".kube", "config");
        return config != null && Files.isRegularFile(config) ? Optional.of(config + " exists") : Optional.empty();
    }

    /** Starts a server on a free port of the loopback address. */
    public static EmbeddedApiServer start() {
        return new EmbeddedApiServer();
    }

    /**
     * Creates every object of {@code manifests} (YAML or JSON, one or many documents), in their
     * order: CRDs first, then objects of their types. Closes the server if one cannot be created.
     */
    public EmbeddedApiServer createAll(InputStream manifests) {
        try {
            for (HasMetadata object : client.load(manifests).items()) {
                client.resource(object).create();
            }
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@link #createAll(InputStream)} of a manifest in a string. */
    public EmbeddedApiServer createAll(String manifests) {
        return createAll(new ByteArrayInputStream(manifests.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * {@link #createAll(InputStream)} of class path resources, such as the CRDs fabric8's generator
     * writes at build time ({@code META-INF/fabric8/<plural>.<group>-v1.yml}).
     *
     * @throws IllegalStateException naming the resource when it is not on the class path
     */
    public EmbeddedApiServer createAllFromClasspath(ClassLoader classLoader, String... resources) {
        for (String resource : resources) {
            try (InputStream manifests = classLoader.getResourceAsStream(resource)) {
                if (manifests == null) {
                    close();
                    throw new IllegalStateException(resource + " is not on the class path; build with Maven, "
                            + "which generates the CRDs from the custom resource classes");
                }
                createAll(manifests);
            } catch (IOException e) {
                close();
                throw new UncheckedIOException(e);
            }
        }
        return this;
    }

    /**
     * Creates every CRD the build generated ({@link GeneratedCrds}: all of
     * {@code META-INF/fabric8/*-v1.yml} on the class path), so that a second kind needs no edit here.
     *
     * @throws IllegalStateException when there is none: the classes were not built with Maven
     */
    public EmbeddedApiServer createGeneratedCrds(ClassLoader classLoader) {
        List<String> crds = GeneratedCrds.resources(classLoader);
        if (crds.isEmpty()) {
            close();
            throw new IllegalStateException("No CRD in " + GeneratedCrds.DIRECTORY + " on the class path; build with "
                    + "Maven, whose fabric8 crd-generator-maven-plugin writes one per custom resource class");
        }
        return createAllFromClasspath(classLoader, crds.toArray(String[]::new));
    }

    /** A client of this server (default namespace {@code test}); closed with the server. */
    public KubernetesClient client() {
        return client;
    }

    /** The server's URL, {@code http://localhost:<port>/}: what {@code kubectl --server} takes. */
    public String url() {
        return client.getMasterUrl().toString();
    }

    /** Stops the server; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        client.close();
        server.destroy();
    }
}
