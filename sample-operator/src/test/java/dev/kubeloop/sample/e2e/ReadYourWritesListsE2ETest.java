package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Read-your-writes in lists against a real kube-apiserver, whose informers deliver a write some
 * milliseconds after its response: a reconcile that applies children and counts them right after,
 * through {@code owned()}, an index and a label match, counts all of them on its first run; and
 * their create events, echoes of its own writes, reconcile nothing more (the reconcile a ported
 * controller-runtime controller relies on to fix its count is not needed, and does not come).
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class ReadYourWritesListsE2ETest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    private ControllerManager manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
    }

    @Test
    void theFirstReconcileCountsTheChildrenItJustAppliedAndTheirEventsReconcileNothingMore() {
        String namespace = kit.namespace();
        Queue<String> counted = new ConcurrentLinkedQueue<>();
        manager = ControllerManager.builder(client).build();
        Controller<ConfigMap> controller = manager.register(ControllerConfig.builder("e2e-children", ConfigMap.class)
                .namespaces(List.of(namespace)).labelSelector("e2e=children").owns(List.of(Secret.class))
                .index(Secret.class, "parent", secret -> List.of(secret.getMetadata().getLabels()
                        .getOrDefault("parent", "")))
                .build(), (parent, context) -> {
                    String name = parent.getMetadata().getName();
                    int children = Integer.parseInt(parent.getData().get("children"));
                    for (int i = 0; i < children; i++) {
                        context.apply(new SecretBuilder().withNewMetadata().withName(name + "-" + i)
                                .addToLabels("parent", name).endMetadata().build());
                    }
                    counted.add("owned=" + context.owned(Secret.class).size()
                            + " index=" + context.caches().byIndex(Secret.class, "parent", namespace, name).size()
                            + " labels=" + context.caches().list(Secret.class, namespace, Map.of("parent", name))
                                    .size());
                    return Result.done();
                });
        manager.start();

        client.resource(new ConfigMapBuilder().withNewMetadata().withName("parent").withNamespace(namespace)
                .addToLabels("e2e", "children").endMetadata().addToData("children", "3").build()).create();

        kit.await("the children reached the cache and the queue is idle", WAIT, () -> !counted.isEmpty()
                && controller.status().writes().pending() == 0 && controller.queueStats().idle());
        assertThat(counted).as("counted by the first reconcile, right after its applies")
                .containsExactly("owned=3 index=3 labels=3");
        assertThat(controller.count(ReconcileOutcome.SUCCESS)).as("reconciles: the children's events are echoes")
                .isEqualTo(1);
    }
}
