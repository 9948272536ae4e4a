package dev.kubeloop.test;

import dev.kubeloop.mock.GeneratedCrds;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Before the test's application context refreshes: starts its {@link TestCluster}, and registers
 * the cluster, its {@code kubernetesClient} (so Kubeloop's auto-configuration builds none) and the
 * {@link KubeloopTestKit}. Against a real cluster every reconciler watches only the test's
 * namespace. The cluster is closed after everything else when the context closes.
 *
 * <p>Equal only for the same test class: every class gets its own context and server.
 */
final class KubeloopTestContextCustomizer implements ContextCustomizer {

    static final String CLUSTER_BEAN = "kubeloopTestCluster";
    static final String CLIENT_BEAN = "kubernetesClient";
    static final String KIT_BEAN = "kubeloopTestKit";

    private final Class<?> testClass;
    private final List<String> crdLocations;
    private final boolean keepNamespaceOnFailure;
    private final boolean webhooks;
    private final boolean failOnUndeclaredDeletes;

    KubeloopTestContextCustomizer(Class<?> testClass, List<String> crdLocations, boolean keepNamespaceOnFailure,
            boolean webhooks, boolean failOnUndeclaredDeletes) {
        this.testClass = testClass;
        this.crdLocations = List.copyOf(crdLocations);
        this.keepNamespaceOnFailure = keepNamespaceOnFailure;
        this.webhooks = webhooks;
        this.failOnUndeclaredDeletes = failOnUndeclaredDeletes;
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        TestCluster cluster = TestCluster.start(testClass.getSimpleName(), readCrds(context), keepNamespaceOnFailure);
        ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
        // registered first, so destroyed last: after the Kubeloop runtime has stopped using the client
        ((DefaultListableBeanFactory) beanFactory).registerDisposableBean(CLUSTER_BEAN, cluster::close);
        beanFactory.registerSingleton(CLUSTER_BEAN, cluster);
        beanFactory.registerSingleton(CLIENT_BEAN, cluster.client());
        beanFactory.registerSingleton(KIT_BEAN, new KubeloopTestKit(cluster, context, failOnUndeclaredDeletes));
        if (cluster.real()) {
            TestPropertyValues.of("kubeloop.namespaces=" + cluster.namespace()).applyTo(context);
        }
        if (webhooks) {
            TestWebhookServer.configure(context, cluster);
        } else {
            TestPropertyValues.of("kubeloop.webhook.enabled=false").applyTo(context);
        }
    }

    private List<String> readCrds(ConfigurableApplicationContext context) {
        DefaultResourceLoader loader = new DefaultResourceLoader(context.getClassLoader());
        List<String> locations = crdLocations.isEmpty()
                ? GeneratedCrds.resources(loader.getClassLoader()).stream().map(name -> "classpath:" + name).toList()
                : crdLocations;
        List<String> manifests = new ArrayList<>();
        for (String location : locations) {
            Resource resource = loader.getResource(location);
            if (!resource.exists()) {
                throw new IllegalStateException("@KubeloopTest(crds) of " + testClass.getName() + ": " + location
                        + " does not exist");
            }
            try (InputStream in = resource.getInputStream()) {
                manifests.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + location, e);
            }
        }
        return manifests;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KubeloopTestContextCustomizer that && testClass == that.testClass
                && crdLocations.equals(that.crdLocations) && keepNamespaceOnFailure == that.keepNamespaceOnFailure
                && webhooks == that.webhooks && failOnUndeclaredDeletes == that.failOnUndeclaredDeletes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(testClass, crdLocations, keepNamespaceOnFailure, webhooks, failOnUndeclaredDeletes);
    }
}
