package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 27, items 4 and 5, against a real kube-apiserver: an owned cache limited to the objects
 * the reconciler applied takes in a child made before once the first apply labels it; a reconciler that owns Pods (its cache
 * limited to the Pods it applied) and watches Pods others labelled for it
 * ({@code app,!kubeloop.dev/applied-by}) has two Pod informers, filtered by the API server; every
 * reconcile triggered by a labelled Pod reads that Pod. The primaries are ConfigMaps, so that no
 * CRD is needed; the Pods are never scheduled (no kubelet), which the test does not need.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class KindCachesE2ETest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int APPS = 40;

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
    void ownedAppliedOnlyAndWatchedWithASelectorEveryReconcileSeesThePodLabelledForIt() {
        String namespace = kit.namespace();
        for (int i = 0; i < APPS; i++) {
            client.resource(new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName("app-" + i)
                    .addToLabels("e2e", "kind-caches").endMetadata().build()).create();
        }
        // a Pod nobody labelled for an app: neither Pod cache holds it
        client.resource(pod(namespace, "unrelated", null)).create();
        ConcurrentMap<String, List<Boolean>> sawItsPod = new ConcurrentHashMap<>();
        manager = ControllerManager.builder(client).build();
        Controller<ConfigMap> controller = manager.register(ControllerConfig.builder("e2e-kind-caches", ConfigMap.class)
                .namespaces(List.of(namespace)).labelSelector("e2e=kind-caches").ownsApplied(Pod.class)
                .watch(Watch.of(Pod.class).labelSelector("app,!kubeloop.dev/applied-by")
                        .mapper(Mappers.toKey(pod -> Optional.of(ObjectKey.of(pod.getMetadata().getNamespace(),
                                pod.getMetadata().getLabels().get("app"))))))
                .build(), (app, context) -> {
                    String name = app.getMetadata().getName();
                    boolean got = context.caches().get(Pod.class, ObjectKey.of(namespace, name + "-pod")).isPresent();
                    boolean listed = context.caches().list(Pod.class, namespace).stream()
                            .anyMatch(pod -> name.equals(pod.getMetadata().getLabels().get("app")));
                    sawItsPod.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(got && listed);
                    return Result.done();
                });
        manager.start();
        kit.await("the first reconcile of every app", WAIT, () -> sawItsPod.size() == APPS
                && controller.queueStats().idle());
        sawItsPod.clear();

        for (int i = 0; i < APPS; i++) {
            client.resource(pod(namespace, "app-" + i + "-pod", "app-" + i)).create();
        }

        kit.await("a reconcile of every app after its Pod", WAIT, () -> sawItsPod.size() == APPS
                && controller.queueStats().idle());
        assertThat(sawItsPod).as("reconciles that did not see the Pod that triggered them")
                .allSatisfy((app, saw) -> assertThat(saw).as(app).containsOnly(true));
        List<InformerStatus> pods = manager.informers().stream().filter(i -> i.kind().equals("Pod")).toList();
        assertThat(pods).as("two Pod informers, each filtered by the API server").hasSize(2)
                .allSatisfy(informer -> assertThat(informer.cachedObjects()).isLessThanOrEqualTo(APPS));
    }

    @Test
    void anAppliedOnlyOwnedCacheTakesInAChildMadeBeforeOnceTheFirstApplyLabelsIt() {
        String namespace = kit.namespace();
        ConfigMap app = client.resource(new ConfigMapBuilder().withNewMetadata().withNamespace(namespace)
                .withName("app").addToLabels("e2e", "applied-only").endMetadata().build()).create();
        for (int i = 0; i < 5; i++) {
            client.resource(new SecretBuilder().withNewMetadata().withNamespace(namespace).withName("unrelated-" + i)
                    .endMetadata().addToStringData("k", "v").build()).create();
        }
        // made by an earlier version with client().create(): owned by the app, without the applied-by label
        client.resource(new SecretBuilder().withNewMetadata().withNamespace(namespace).withName("app-child")
                .addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                        .withName("app").withUid(app.getMetadata().getUid()).withController(true).build())
                .endMetadata().addToStringData("k", "old").build()).create();
        List<List<String>> owned = new CopyOnWriteArrayList<>();
        manager = ControllerManager.builder(client).build();
        Controller<ConfigMap> controller = manager.register(ControllerConfig.builder("e2e-applied-only", ConfigMap.class)
                .namespaces(List.of(namespace)).labelSelector("e2e=applied-only").ownsApplied(Secret.class).build(),
                (primary, context) -> {
                    context.apply(new SecretBuilder().withNewMetadata().withName("app-child").endMetadata()
                            .addToStringData("k", "new").build());
                    owned.add(context.owned(Secret.class).stream().map(s -> s.getMetadata().getName()).toList());
                    return Result.done();
                });
        manager.start();

        kit.await("the child labelled by the first apply and owned() listing it", WAIT, () -> !owned.isEmpty()
                && owned.get(owned.size() - 1).equals(List.of("app-child")) && controller.queueStats().idle());
        Secret child = client.secrets().inNamespace(namespace).withName("app-child").get();
        assertThat(child.getMetadata().getLabels()).containsEntry("kubeloop.dev/applied-by", "e2e-applied-only");
        assertThat(child.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(app.getMetadata().getUid()));
        InformerStatus secrets = manager.informers().stream().filter(i -> i.kind().equals("Secret")).findFirst()
                .orElseThrow();
        assertThat(secrets.cachedObjects()).as("the unrelated Secrets are not cached").isEqualTo(1);

        int before = owned.size();
        client.secrets().inNamespace(namespace).withName("app-child").edit(s -> {
            s.getMetadata().setAnnotations(Map.of("drift", "yes"));
            return s;
        });
        kit.await("a change to the labelled child reconciles its owner", WAIT, () -> owned.size() > before);
    }

    private static Pod pod(String namespace, String name, String app) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer().endSpec();
        if (app != null) {
            pod.editMetadata().addToLabels("app", app).endMetadata();
        }
        return pod.build();
    }
}
