package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A delete's preconditions, as the real API server checks them: a stale version deletes nothing. */
class DeletePreconditionsDispatcherTest {

    private ServedDispatcher served;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        served = ServedDispatcher.of(new DeletePreconditionsDispatcher(new KubernetesCrudDispatcher(List.of())));
        client = served.client();
    }

    @AfterEach
    void stop() {
        served.close();
    }

    @Test
    void aDeleteLockedOnTheStoredVersionDeletes() {
        ConfigMap stored = create("a");

        assertThat(client.resource(stored).lockResourceVersion().delete()).hasSize(1);

        assertThat(client.configMaps().inNamespace("ns").withName("a").get()).isNull();
    }

    @Test
    void aDeleteLockedOnAnEarlierVersionIsAConflictAndDeletesNothing() {
        ConfigMap seen = create("a");
        ConfigMap changed = client.configMaps().inNamespace("ns").withName("a")
                .edit(configMap -> new ConfigMapBuilder(configMap).editMetadata().addToLabels("keep", "yes")
                        .endMetadata().build());

        assertThatThrownBy(() -> client.resource(seen).lockResourceVersion().delete())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on configmaps "
                            + "\"a\": Precondition failed: ResourceVersion in precondition: "
                            + seen.getMetadata().getResourceVersion() + ", ResourceVersion in object meta: "
                            + changed.getMetadata().getResourceVersion());
                });

        assertThat(client.configMaps().inNamespace("ns").withName("a").get().getMetadata().getLabels())
                .containsEntry("keep", "yes");
    }

    @Test
    void aDeleteForAnotherUidIsAConflict() throws Exception {
        create("a");
        String otherUid = UUID.randomUUID().toString();

        // fabric8 sends no uid precondition itself: the DeleteOptions a Go client would send
        HttpResponse<String> response = delete("a", "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"preconditions\":{\"uid\":\"" + otherUid + "\"}}");

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(response.body()).contains("Precondition failed: UID in precondition: " + otherUid);
        assertThat(client.configMaps().inNamespace("ns").withName("a").get()).isNotNull();
    }

    @Test
    void aDeleteWhoseBodyIsNotJsonIsABadRequestAndDeletesNothing() throws Exception {
        create("a");

        HttpResponse<String> response = delete("a", "{\"kind\":\"DeleteOptions\",\"preconditions\":");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"reason\":\"BadRequest\"").contains("is not DeleteOptions");
        assertThat(client.configMaps().inNamespace("ns").withName("a").get()).isNotNull();
    }

    @Test
    void aLockedDeleteOfAnObjectGoneAlreadyIsANotFoundAsBefore() {
        ConfigMap stored = create("a");
        client.resource(stored).delete();

        assertThat(client.resource(stored).lockResourceVersion().delete()).isEmpty();
    }

    @Test
    void aDeleteWithoutPreconditionsDeletesWhateverTheVersion() {
        ConfigMap seen = create("a");
        client.configMaps().inNamespace("ns").withName("a").edit(configMap -> new ConfigMapBuilder(configMap)
                .addToData("k", "changed").build());

        assertThat(client.resource(seen).delete()).hasSize(1);

        assertThat(client.configMaps().inNamespace("ns").withName("a").get()).isNull();
    }

    /** A delete of ConfigMap {@code name} in "ns" with {@code body} as it is, not as fabric8 would write it. */
    private HttpResponse<String> delete(String name, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(served.server().url("/api/v1/namespaces/ns/configmaps/" + name)))
                .header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private ConfigMap create(String name) {
        return client.resource(new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .endMetadata().addToData("k", "v").build()).create();
    }
}
