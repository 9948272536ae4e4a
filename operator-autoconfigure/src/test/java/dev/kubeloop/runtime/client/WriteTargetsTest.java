package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WriteTargetsTest {

    @Test
    void aCustomResourceIsAddressedByItsTypeNamespaceAndNameOnly() {
        Widget widget = Widget.named("ns", "a").withLabel("tier", "web");
        widget.getMetadata().setResourceVersion("7");
        widget.setStatus(new Widget.Status());

        Widget stub = WriteTargets.of(widget);

        assertThat(stub).isNotSameAs(widget).isExactlyInstanceOf(Widget.class);
        assertThat(stub.getApiVersion()).isEqualTo(widget.getApiVersion());
        assertThat(stub.getKind()).isEqualTo("Widget");
        assertThat(stub.getMetadata()).isEqualTo(new ObjectMeta() {{
            setNamespace("ns");
            setName("a");
        }});
        assertThat(stub.getSpec()).isNull();
        assertThat(stub.getStatus()).isNull();
    }

    @Test
    void aGenericResourceKeepsItsApiVersionAndKind() {
        GenericKubernetesResource generic = new GenericKubernetesResourceBuilder().withApiVersion("example.com/v2")
                .withKind("Gadget").withNewMetadata().withNamespace("ns").withName("g").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 3))).build();

        GenericKubernetesResource stub = WriteTargets.of(generic);

        assertThat(stub.getApiVersion()).isEqualTo("example.com/v2");
        assertThat(stub.getKind()).isEqualTo("Gadget");
        assertThat(stub.getMetadata().getName()).isEqualTo("g");
        assertThat(stub.getAdditionalProperties()).isEmpty();
    }

    @Test
    void aBuiltInTypeKeepsItsClassAndDropsItsData() {
        ConfigMap map = new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata()
                .withData(Map.of("k", "v")).build();

        ConfigMap stub = WriteTargets.of(map);

        assertThat(stub.getKind()).isEqualTo("ConfigMap");
        assertThat(stub.getMetadata().getName()).isEqualTo("c");
        assertThat(stub.getMetadata().getNamespace()).isNull();
        assertThat(stub.getData()).isNullOrEmpty();
    }

    @Test
    void aTypeWithoutANoArgumentConstructorIsAddressedWithItself() {
        NoDefaultConstructor object = new NoDefaultConstructor("x");

        assertThat(WriteTargets.of(object)).isSameAs(object);
    }

    /**
     * fabric8 clones the object a request is addressed with (renders and parses it) before every
     * PATCH; a status write addressed with the reconciler's object paid for a copy of all of it.
     */
    @Test
    void statusWritesNeverRenderTheObjectTheyWrite() {
        try (MockCluster cluster = MockCluster.withWidgetCrd()) {
            KubernetesClient client = cluster.client();
            client.resource(Widget.named("ns", "a")).create();
            AtomicInteger specReads = new AtomicInteger();
            Widget widget = client.resources(Widget.class).inNamespace("ns").withName("a").get();
            widget.setSpec(new CountingSpec(specReads));
            Widget.Status status = new Widget.Status();
            status.setMessage("applied");

            ServerSideApply.applyStatus(client, widget, status, "test", null);
            status.setMessage("patched");
            widget.setStatus(status);
            new JsonPatch().add("/status", status).applyToStatus(client, widget);

            assertThat(specReads).as("reads of the spec while sending").hasValue(0);
            assertThat(client.resources(Widget.class).inNamespace("ns").withName("a").get().getStatus().getMessage())
                    .isEqualTo("patched");
        }
    }

    /** A spec that counts how often it is read (serialization reads it through its getter). */
    static final class CountingSpec extends Widget.Spec {

        private final AtomicInteger reads;

        CountingSpec(AtomicInteger reads) {
            this.reads = reads;
        }

        @Override
        public String getColor() {
            reads.incrementAndGet();
            return super.getColor();
        }
    }

    /** A resource type fabric8 could not build a stub of either. */
    public static final class NoDefaultConstructor implements HasMetadata {

        private static final long serialVersionUID = 1L;

        private ObjectMeta metadata;
        private String apiVersion = "v1";

        public NoDefaultConstructor(String name) {
            metadata = new ObjectMeta();
            metadata.setName(name);
        }

        @Override
        public ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public void setMetadata(ObjectMeta metadata) {
            this.metadata = metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public void setApiVersion(String version) {
            this.apiVersion = version;
        }
    }
}
