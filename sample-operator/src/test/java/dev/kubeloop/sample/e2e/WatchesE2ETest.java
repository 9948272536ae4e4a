package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Watches of related resources against a real kube-apiserver: a cluster-scoped type watched
 * metadata-only through a field selector, the metadata-only content negotiation itself, and an
 * optional type whose CRD is installed and removed while the operator runs. (The mapper through
 * an index runs here too: the sample's WebsiteTlsTest is part of the e2e suite.) Each test runs
 * its own controller manager on the kit's client, in the kit's namespace.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = "sample.demo=off")
class WatchesE2ETest {

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
        client.apiextensions().v1().customResourceDefinitions().withName(GADGETS).delete();
    }

    @Test
    void aClusterScopedTypeIsWatchedMetadataOnlyThroughAFieldSelector() {
        String namespace = kit.namespace();
        client.resource(configMap("namespace-watcher")).create();
        Queue<String> reconciled = new ConcurrentLinkedQueue<>();
        manager = ControllerManager.builder(client).build();
        Controller<ConfigMap> controller = manager.register(ControllerConfig.builder("e2e-namespaces", ConfigMap.class)
                .namespaces(List.of(namespace)).labelSelector("e2e=namespace-watcher")
                .watch(Watch.of(Namespace.class).metadataOnly().fieldSelector("metadata.name=" + namespace)
                        .predicate(Predicates.labelsChanged())
                        .mapper((ns, caches) -> caches.list(ConfigMap.class, ns.getMetadata().getName()).stream()
                                .map(ObjectKey::of).toList()))
                .build(), (configMap, context) -> {
                    reconciled.add(configMap.getMetadata().getName());
                    return Result.done();
                });
        manager.start();
        kit.await("the first reconcile", WAIT, () -> reconciled.size() == 1);
        InformerStatus namespaces = manager.informers().stream().filter(i -> i.kind().equals("Namespace"))
                .findFirst().orElseThrow();
        assertThat(namespaces.metadataOnly()).isTrue();
        assertThat(namespaces.namespace()).as("cluster-scoped: no namespace").isNull();
        assertThat(namespaces.cachedObjects()).as("the field selector leaves one namespace of many").isEqualTo(1);

        client.namespaces().withName(namespace).edit(ns -> {
            Map<String, String> labels = new HashMap<>(ns.getMetadata().getLabels() == null ? Map.of()
                    : ns.getMetadata().getLabels());
            labels.put("e2e-tier", "gold");
            ns.getMetadata().setLabels(labels);
            return ns;
        });

        kit.await("the namespace's label change reconciles its ConfigMap", WAIT, () -> reconciled.size() == 2);
        assertThat(reconciled).containsOnly("namespace-watcher");
        assertThat(controller.count(ReconcileOutcome.SUCCESS)).isEqualTo(2);
    }

    /** What the metadata-only informers rely on: the API server answers with PartialObjectMetadataList. */
    @Test
    void theApiServerAnswersAMetadataOnlyListWithoutTheObjectsContent() throws Exception {
        client.resource(new SecretBuilder().withMetadata(new ObjectMetaBuilder().withName("content")
                .withNamespace(kit.namespace()).build()).withStringData(Map.of("password", "s3cr3t")).build()).create();
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl().toString().replaceAll("/$", "") + "/api/v1/namespaces/" + kit.namespace()
                        + "/secrets")
                .header("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")
                .build();

        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get();

        assertThat(response.code()).isEqualTo(200);
        assertThat(response.body()).contains("\"kind\":\"PartialObjectMetadataList\"", "\"name\":\"content\"")
                .doesNotContain("s3cr3t", "czNjcjN0", "\"data\"");
    }

    @Test
    void anOptionalTypeStartsWhenItsCrdIsInstalledAndStopsWhenItIsRemoved() {
        String namespace = kit.namespace();
        client.resource(configMap("gadget-watcher")).create();
        Queue<String> reconciled = new ConcurrentLinkedQueue<>();
        manager = ControllerManager.builder(client).optionalTypePollInterval(Duration.ofMillis(500)).build();
        manager.register(ControllerConfig.builder("e2e-gadgets", ConfigMap.class).namespaces(List.of(namespace))
                .labelSelector("e2e=gadget-watcher")
                .watch(Watch.of(Gadget.class).optional().mapper((gadget, caches) -> List.of(
                        ObjectKey.of(namespace, "gadget-watcher"))))
                .build(), (configMap, context) -> {
                    reconciled.add(configMap.getMetadata().getName());
                    return Result.done();
                });

        manager.start(); // the Gadget CRD is not installed: no failure

        assertThat(gadgets()).satisfies(informer -> {
            assertThat(informer.waiting()).isTrue();
            assertThat(informer.started()).isFalse();
        });
        assertThat(manager.hasSynced()).isTrue();
        kit.await("the first reconcile", WAIT, () -> reconciled.size() == 1);

        client.apiextensions().v1().customResourceDefinitions().resource(gadgetCrd()).create();
        kit.await("the Gadget informer starts", WAIT, () -> gadgets().synced() && !gadgets().waiting());
        Gadget gadget = new Gadget();
        gadget.setMetadata(new ObjectMetaBuilder().withName("g1").build());
        client.resource(gadget).create();
        kit.await("a Gadget's creation reconciles the ConfigMap", WAIT, () -> reconciled.size() == 2);

        client.apiextensions().v1().customResourceDefinitions().withName(GADGETS).delete();

        kit.await("the Gadget informer waits for its type again", WAIT, () -> gadgets().waiting());
        assertThat(gadgets().started()).isFalse();
        assertThat(gadgets().failed()).as("a CRD that goes is no failure").isFalse();
        kit.await("the Gadget's removal reconciles the ConfigMap", WAIT, () -> reconciled.size() >= 3);
        assertThat(manager.hasSynced()).isTrue();
    }

    private InformerStatus gadgets() {
        return manager.informers().stream().filter(i -> i.kind().equals("Gadget")).findFirst().orElseThrow();
    }

    /** A ConfigMap only one test's controller selects (by the label e2e=name). */
    private ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(kit.namespace()).withName(name)
                .addToLabels("e2e", name).endMetadata().build();
    }

    static final String GADGETS = "gadgets.e2e.kubeloop.dev";

    /** A cluster-scoped type of another "operator", whose CRD comes and goes. */
    @Group("e2e.kubeloop.dev")
    @Version("v1")
    public static class Gadget extends CustomResource<Map<String, Object>, Void> {
        private static final long serialVersionUID = 1L;
    }

    private static CustomResourceDefinition gadgetCrd() {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName(GADGETS).endMetadata()
                .withNewSpec().withGroup("e2e.kubeloop.dev").withScope("Cluster")
                .withNewNames().withKind("Gadget").withPlural("gadgets").withSingular("gadget").endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true)
                .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion()
                .endSpec().build();
    }
}
