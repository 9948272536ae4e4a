package dev.kubeloop.test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster {@code KUBECONFIG} points at: CRDs applied (and waited for until established), a
 * fresh namespace per test class, deleted on close unless a test failed and the class asked to
 * keep it. Objects outside the namespace are never touched, CRDs are left installed.
 */
final class RealTestCluster implements TestCluster {

    private static final Logger log = LoggerFactory.getLogger(RealTestCluster.class);

    private final KubernetesClient client;
    private final String namespace;
    private final boolean keepNamespaceOnFailure;
    private volatile boolean failed;

    private RealTestCluster(KubernetesClient client, String namespace, boolean keepNamespaceOnFailure) {
        this.client = client;
        this.namespace = namespace;
        this.keepNamespaceOnFailure = keepNamespaceOnFailure;
    }

    static RealTestCluster start(String testName, List<String> crds, boolean keepNamespaceOnFailure) {
        String namespace = namespaceFor(testName);
        Config config = new ConfigBuilder(Config.autoConfigure(null)).withNamespace(namespace).build();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        try {
            for (String manifest : crds) {
                for (HasMetadata object : client.load(
                        new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).items()) {
                    client.resource(object).forceConflicts().serverSideApply();
                    if (object instanceof CustomResourceDefinition crd) {
                        client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                                .waitUntilCondition(RealTestCluster::established, 60, TimeUnit.SECONDS);
                    }
                }
            }
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                    .addToLabels("app.kubernetes.io/created-by", "kubeloop-test").endMetadata().build()).create();
            log.info("Test namespace {} created on {}", namespace, client.getMasterUrl());
            return new RealTestCluster(client, namespace, keepNamespaceOnFailure);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private static boolean established(CustomResourceDefinition crd) {
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** {@code kl-<test class, shortened>-<random>}: a valid, unique namespace name. */
    static String namespaceFor(String testName) {
        String base = testName.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-").replaceAll("^-|-$", "");
        if (base.length() > 40) {
            base = base.substring(0, 40).replaceAll("-$", "");
        }
        String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36, 36 * 36 * 36 * 36 * 36),
                36);
        return "kl-" + base + "-" + suffix;
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public boolean real() {
        return true;
    }

    @Override
    public void testFailed() {
        failed = true;
    }

    @Override
    public void close() {
        try {
            if (failed && keepNamespaceOnFailure) {
                log.warn("A test failed: namespace {} is kept for inspection (delete it with kubectl delete namespace {})",
                        namespace, namespace);
            } else {
                client.namespaces().withName(namespace).delete();
            }
        } finally {
            client.close();
        }
    }
}
