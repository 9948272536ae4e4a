package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.PriorityWorkQueue;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which events of an object in a primary's way queue that primary ({@link ForeignBlockers}): its
 * deletion and a change of its controller or of the applied-by label do, once; anything else, or
 * another object by the same name, does not; a primary that succeeded is no longer woken.
 */
class ForeignBlockersTest {

    private static final ObjectKey A = ObjectKey.of("ns", "a");
    private static final ObjectKey B = ObjectKey.of("ns", "b");

    private final PriorityWorkQueue<ObjectKey> queue = PriorityWorkQueue.create("widget");
    private final ForeignBlockers blockers = new ForeignBlockers(queue);

    @Test
    void itsDeletionQueuesEveryPrimaryItBlocksOnce() {
        blockers.blocked(A, refusal("ConfigMap", "shared"));
        blockers.blocked(B, refusal("ConfigMap", "shared"));

        blockers.onDelete(configMap("shared", null, null));

        assertThat(queue.state(A)).isEqualTo(ItemState.QUEUED);
        assertThat(queue.state(B)).isEqualTo(ItemState.QUEUED);
        assertThat(blockers.size()).isZero();
    }

    @Test
    void aNewControllerOrANewAppliedByLabelQueuesIt() {
        blockers.blocked(A, refusal("ConfigMap", "shared"));
        blockers.onUpdate(configMap("shared", "database-uid", null), configMap("shared", null, null));
        assertThat(queue.state(A)).isEqualTo(ItemState.QUEUED);

        blockers.blocked(B, refusal("ConfigMap", "shared"));
        blockers.onUpdate(configMap("shared", null, null), configMap("shared", null, "widget"));
        assertThat(queue.state(B)).isEqualTo(ItemState.QUEUED);
    }

    @Test
    void otherChangesOfItQueueNothing() {
        blockers.blocked(A, refusal("ConfigMap", "shared"));
        ConfigMap before = configMap("shared", "database-uid", null);
        ConfigMap after = configMap("shared", "database-uid", null);
        after.setData(Map.of("index.html", "changed"));

        blockers.onUpdate(before, after);
        blockers.onAdd(after, false);

        assertThat(queue.state(A)).isEqualTo(ItemState.ABSENT);
        assertThat(blockers.size()).isEqualTo(1);
    }

    @Test
    void anotherKindByTheSameNameQueuesNothing() {
        blockers.blocked(A, refusal("ConfigMap", "shared"));

        Service service = new ServiceBuilder().withNewMetadata().withNamespace("ns").withName("shared").endMetadata()
                .build();
        blockers.onDelete(service);

        assertThat(queue.state(A)).isEqualTo(ItemState.ABSENT);
    }

    @Test
    void aPrimaryThatSucceededOrIsBlockedByAnotherObjectIsNotQueued() {
        blockers.blocked(A, refusal("ConfigMap", "first"));
        blockers.blocked(A, refusal("ConfigMap", "second"));
        blockers.blocked(B, refusal("ConfigMap", "second"));
        blockers.forget(B);

        blockers.onDelete(configMap("first", null, null));
        assertThat(queue.state(A)).as("no longer blocked by the first").isEqualTo(ItemState.ABSENT);

        blockers.onDelete(configMap("second", null, null));
        assertThat(queue.state(A)).isEqualTo(ItemState.QUEUED);
        assertThat(queue.state(B)).as("succeeded meanwhile").isEqualTo(ItemState.ABSENT);
    }

    private static ForeignObjectException refusal(String kind, String name) {
        return new ForeignObjectException(kind, ObjectKey.of("ns", name), kind + " " + name + " is in the way");
    }

    private static ConfigMap configMap(String name, String controllerUid, String appliedBy) {
        ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name)
                .endMetadata();
        if (controllerUid != null) {
            builder.editMetadata().addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("example.com/v1")
                    .withKind("Database").withName("db").withUid(controllerUid).withController(true).build())
                    .endMetadata();
        }
        if (appliedBy != null) {
            builder.editMetadata().addToLabels(ControllerWrites.APPLIED_BY, appliedBy).endMetadata();
        }
        return builder.build();
    }
}
