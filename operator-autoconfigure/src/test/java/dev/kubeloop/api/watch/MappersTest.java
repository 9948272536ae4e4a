package dev.kubeloop.api.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.testing.Gadget;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ready-made mappers: what they ask the caches, and nothing more. */
class MappersTest {

    /** Records every read; answers byIndex with two Widgets, and fails the test on any other read. */
    private static final class RecordingCaches implements CacheReader {
        final List<String> reads = new ArrayList<>();

        @Override
        public <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey key) {
            reads.add("get " + type.getSimpleName() + " " + key);
            return Optional.empty();
        }

        @Override
        public <R extends HasMetadata> List<R> list(Class<R> type, String namespace) {
            reads.add("list " + type.getSimpleName() + " " + namespace);
            return List.of();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, String namespace, String value) {
            reads.add("byIndex " + type.getSimpleName() + " " + index + " " + namespace + " " + value);
            return (List<R>) List.of(Widget.named(namespace, "a"), Widget.named(namespace, "b"));
        }
    }

    @Test
    void byIndexLooksUpTheObjectsNameInItsNamespaceAndNeverScans() {
        RecordingCaches caches = new RecordingCaches();
        Secret secret = new SecretBuilder().withNewMetadata().withNamespace("team-a").withName("db").endMetadata()
                .build();

        List<ObjectKey> keys = Mappers.byIndex(Widget.class, "spec.secretName").map(secret, caches);

        assertThat(keys).containsExactly(ObjectKey.of("team-a", "a"), ObjectKey.of("team-a", "b"));
        assertThat(caches.reads).containsExactly("byIndex Widget spec.secretName team-a db");
    }

    @Test
    void byIndexOfAClusterScopedPrimaryLooksInAllNamespaces() {
        RecordingCaches caches = new RecordingCaches();
        Secret secret = new SecretBuilder().withNewMetadata().withNamespace("team-a").withName("db").endMetadata()
                .build();

        Mappers.byIndex(Gadget.class, "spec.secretName").map(secret, caches);

        assertThat(caches.reads).containsExactly("byIndex Gadget spec.secretName null db");
    }

    @Test
    void toKeyMapsToTheKeyTheFunctionGivesOrToNone() {
        Mapper<Secret> byLabel = Mappers.toKey(secret -> Optional.ofNullable(secret.getMetadata().getLabels()
                .get("widget")).map(name -> ObjectKey.of(secret.getMetadata().getNamespace(), name)));
        Secret labelled = new SecretBuilder().withNewMetadata().withNamespace("ns").withName("s")
                .addToLabels("widget", "w").endMetadata().build();
        Secret unlabelled = new SecretBuilder().withNewMetadata().withNamespace("ns").withName("s").endMetadata()
                .build();

        assertThat(byLabel.map(labelled, new RecordingCaches())).containsExactly(ObjectKey.of("ns", "w"));
        assertThat(byLabel.map(unlabelled, new RecordingCaches())).isEmpty();
    }
}
