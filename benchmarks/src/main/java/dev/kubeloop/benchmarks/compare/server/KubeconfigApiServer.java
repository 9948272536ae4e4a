package dev.kubeloop.benchmarks.compare.server;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.model.BenchCrd;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real API server from the kubeconfig ({@code KUBECONFIG} or {@code ~/.kube/config}). Installs
 * the CRD once, gives every run a fresh namespace, unique to the invocation (deleted in the
 * background afterwards), creates
 * the objects with a few parallel requests, and sees status writes through a watch of its own:
 * a real API server serves watches from its watch cache, so one more watcher costs it little.
 */
public final class KubeconfigApiServer implements ApiServer {

    private static final int SEED_THREADS = 8;

    private final KubernetesClient admin = ClientFactory.create(null, "default");
    /**
     * Makes this invocation's namespaces unique: a namespace deleted by an earlier invocation may
     * still be terminating (and forever so on an API server without a namespace controller, such as
     * scripts/local-apiserver.sh's).
     */
    private final String invocation = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);

    public KubeconfigApiServer() {
        CustomResourceDefinition crd = BenchCrd.definition();
        admin.apiextensions().v1().customResourceDefinitions().resource(crd).forceConflicts().serverSideApply();
        admin.apiextensions().v1().customResourceDefinitions().withName(BenchCrd.name()).waitUntilCondition(
                installed -> installed != null && installed.getStatus() != null
                        && installed.getStatus().getConditions().stream().anyMatch(
                                c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())),
                1, TimeUnit.MINUTES);
    }

    @Override
    public String description() {
        return "kube-apiserver at " + admin.getMasterUrl() + " (kubeconfig), fresh namespace per run";
    }

    @Override
    public ServerSession open(String runId) {
        String namespace = ("kubeloop-bench-" + invocation + "-" + runId).toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9-]", "-");
        if (namespace.length() > 63) {
            namespace = namespace.substring(0, 63).replaceAll("-+$", "");
        }
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                .build()).create();
        KubernetesClient client = ClientFactory.create(null, namespace);
        GenerationTracker statusWrites = new GenerationTracker();
        Watch watch = client.resources(BenchResource.class).inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, BenchResource resource) {
                if (resource.getStatus() != null && resource.getStatus().getObservedGeneration() != null) {
                    statusWrites.record(resource.getMetadata().getName(),
                            resource.getStatus().getObservedGeneration(), WallClock.nowNanos());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                System.err.println("status watch closed: " + cause);
            }
        });
        return new Session(namespace, client, statusWrites, watch, admin);
    }

    @Override
    public void close() {
        admin.close();
    }

    private record Session(String namespace, KubernetesClient client, GenerationTracker statusWrites, Watch watch,
            KubernetesClient admin) implements ServerSession {

        @Override
        public String masterUrl() {
            return null;
        }

        @Override
        public void seed(int count) throws Exception {
            AtomicInteger threadNumber = new AtomicInteger();
            ExecutorService seeders = Executors.newFixedThreadPool(SEED_THREADS,
                    task -> new Thread(task, "seeder-" + threadNumber.incrementAndGet()));
            try {
                List<Future<?>> creates = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    BenchResource object = BenchObjects.create(namespace, BenchObjects.name(i));
                    // a real API server records its own managedFields for the creator
                    object.getMetadata().setManagedFields(null);
                    creates.add(seeders.submit(() -> client.resource(object).create()));
                }
                for (Future<?> create : creates) {
                    create.get(5, TimeUnit.MINUTES);
                }
            } finally {
                seeders.shutdownNow();
            }
        }

        @Override
        public void close() {
            watch.close();
            client.close();
            admin.namespaces().withName(namespace).delete();
        }
    }
}
