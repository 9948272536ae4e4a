package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServerSideApplyDispatcherTest {

    private ServedDispatcher served;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        served = ServedDispatcher.of(new ServerSideApplyDispatcher(new KubernetesCrudDispatcher(List.of())));
        client = served.client();
    }

    @AfterEach
    void stop() {
        served.close();
    }

    @Test
    void anApplyOfAMissingObjectCreatesIt() {
        ConfigMap stored = apply(configMap(Map.of("a", "1")));

        assertThat(stored.getMetadata().getResourceVersion()).isNotNull();
        assertThat(client.configMaps().inNamespace("ns").withName("cm").get().getData()).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void anApplyOfAnExistingObjectMergesTheAppliedFields() {
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("cm").withNamespace("ns")
                .addToLabels("kept", "yes").endMetadata().addToData("a", "0").addToData("b", "2").build()).create();

        ConfigMap stored = apply(configMap(Map.of("a", "1")));

        assertThat(stored.getData()).containsEntry("a", "1").containsEntry("b", "2");
        assertThat(stored.getMetadata().getLabels()).containsEntry("kept", "yes");
    }

    @Test
    void anApplyThatChangesNothingWritesNothing() {
        ConfigMap first = apply(configMap(Map.of("a", "1")));

        ConfigMap again = apply(configMap(Map.of("a", "1")));

        assertThat(again.getMetadata().getResourceVersion()).isEqualTo(first.getMetadata().getResourceVersion());
        assertThat(apply(configMap(Map.of("a", "2"))).getMetadata().getResourceVersion())
                .isNotEqualTo(first.getMetadata().getResourceVersion());
    }

    @Test
    void aFieldTheManagerStopsApplyingIsRemoved() {
        apply(configMap(Map.of("a", "1", "b", "2")));

        ConfigMap stored = apply(configMap(Map.of("a", "1")));

        assertThat(stored.getData()).containsExactly(Map.entry("a", "1"));
    }

    @Test
    void eachManagerRemovesOnlyWhatItAloneApplied() {
        apply(configMap(Map.of("site-a", "http://a", "shared", "x")), "index/a");
        apply(configMap(Map.of("site-b", "http://b", "shared", "x")), "index/b");

        ConfigMap stored = apply(configMap(Map.of()), "index/a");

        assertThat(stored.getData()).containsOnlyKeys("site-b", "shared");
    }

    @Test
    void aRecreatedObjectStartsWithoutHistory() {
        apply(configMap(Map.of("a", "1", "b", "2")));
        client.configMaps().inNamespace("ns").withName("cm").delete();
        client.resource(configMap(Map.of("b", "by-hand"))).create();

        ConfigMap stored = apply(configMap(Map.of("a", "1")));

        assertThat(stored.getData()).as("b was created by hand, not applied").containsEntry("b", "by-hand");
    }

    @Test
    void applyingTheStatusSubresourceChangesOnlyTheStatus() {
        Deployment deployment = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("ns")
                .endMetadata().withNewSpec().withReplicas(2).endSpec().build();
        client.resource(deployment).create();
        Deployment applied = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("ns")
                .endMetadata().withNewSpec().withReplicas(5).endSpec()
                .withStatus(new DeploymentStatusBuilder().withReadyReplicas(2).build()).build();

        Deployment stored = client.resource(applied).subresource("status").patch(context(), applied);

        assertThat(stored.getStatus().getReadyReplicas()).isEqualTo(2);
        assertThat(client.apps().deployments().inNamespace("ns").withName("web").get().getSpec().getReplicas())
                .isEqualTo(2);
    }

    @Test
    void aStatusApplyOfAMissingObjectIsNotFound() {
        Deployment applied = new DeploymentBuilder().withNewMetadata().withName("gone").withNamespace("ns")
                .endMetadata().withStatus(new DeploymentStatusBuilder().withReadyReplicas(1).build()).build();

        assertThatThrownBy(() -> client.resource(applied).subresource("status").patch(context(), applied))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    }

    @Test
    void anApplyWhoseCreateLosesARaceMergesIntoTheWinner() {
        // another client creates the object between the apply's read (404) and its create
        try (ServedDispatcher racing = ServedDispatcher.of(new ServerSideApplyDispatcher(new CreatingBeforeFirstPost(
                new KubernetesCrudDispatcher(List.of()), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                        + "{\"name\":\"cm\",\"namespace\":\"ns\"},\"data\":{\"winner\":\"yes\"}}")))) {
            ConfigMap desired = configMap(Map.of("a", "1"));

            ConfigMap stored = racing.client().resource(desired).patch(context(), desired);

            assertThat(stored.getData()).containsEntry("winner", "yes").containsEntry("a", "1");
        }
    }

    @Test
    void concurrentAppliesOfANewObjectByManyManagersAllSucceedAndAllCount() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<ConfigMap>> applies = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String key = "k" + i;
                applies.add(CompletableFuture.supplyAsync(() -> apply(configMap(Map.of(key, "v")), "manager-" + key),
                        threads));
            }
            for (CompletableFuture<ConfigMap> apply : applies) {
                assertThat(apply.get(30, TimeUnit.SECONDS)).isNotNull();
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(client.configMaps().inNamespace("ns").withName("cm").get().getData()).hasSize(8);
    }

    @Test
    void aStatusPatchNamingItsFieldManagerPatchesTheStatus() {
        Deployment deployment = client.resource(new DeploymentBuilder().withNewMetadata().withName("web")
                .withNamespace("ns").endMetadata().withNewSpec().withReplicas(2).endSpec().build()).create();
        PatchContext context = PatchContext.of(PatchType.JSON);
        context.setFieldManager("widget");

        Deployment patched = client.resource(deployment).subresource("status").patch(context,
                "[{\"op\":\"add\",\"path\":\"/status\",\"value\":{\"readyReplicas\":2}}]");

        assertThat(patched.getStatus().getReadyReplicas()).isEqualTo(2);
        assertThat(client.apps().deployments().inNamespace("ns").withName("web").get().getStatus().getReadyReplicas())
                .isEqualTo(2);
    }

    @Test
    void otherRequestsPassThrough() {
        client.resource(configMap(Map.of("a", "1"))).create();

        ConfigMap patched = client.configMaps().inNamespace("ns").withName("cm")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"b\":\"2\"}}");

        assertThat(patched.getData()).containsEntry("a", "1").containsEntry("b", "2");
    }

    /** Creates an object itself just before it passes on the first POST: the create of a concurrent apply. */
    private static final class CreatingBeforeFirstPost extends Dispatcher {
        private final Dispatcher delegate;
        private final String object;
        private final AtomicBoolean raced = new AtomicBoolean();

        CreatingBeforeFirstPost(Dispatcher delegate, String object) {
            this.delegate = delegate;
            this.object = object;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if ("POST".equals(request.getMethod()) && raced.compareAndSet(false, true)) {
                MockResponse created = delegate.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.POST,
                        request.getPath(), request.getHeaders(), new Buffer().writeUtf8(object)));
                assertThat(created.code()).isEqualTo(201);
            }
            return delegate.dispatch(request);
        }
    }

    private ConfigMap apply(ConfigMap desired) {
        return apply(desired, "test");
    }

    private ConfigMap apply(ConfigMap desired, String manager) {
        return client.resource(desired).patch(context(manager), desired);
    }

    private static PatchContext context() {
        return context("test");
    }

    private static PatchContext context(String manager) {
        PatchContext context = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
        context.setFieldManager(manager);
        context.setForce(true);
        return context;
    }

    private static ConfigMap configMap(Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName("cm").withNamespace("ns").endMetadata()
                .withData(new HashMap<>(data)).build();
    }
}
