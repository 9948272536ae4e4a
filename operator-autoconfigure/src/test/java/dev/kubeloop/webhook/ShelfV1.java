package dev.kubeloop.webhook;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;

/** The spoke: {@code kubeloop.dev/v1 Shelf}, with {@code spec.bookCount}. */
@Group("kubeloop.dev")
@Version("v1")
@Kind("Shelf")
public class ShelfV1 extends CustomResource<ShelfV1.Spec, Void> implements Namespaced {

    private static final long serialVersionUID = 1L;

    /** Desired state, the old way. */
    public static class Spec {
        private Integer bookCount;
        private String label;

        public Integer getBookCount() {
            return bookCount;
        }

        public void setBookCount(Integer bookCount) {
            this.bookCount = bookCount;
        }

        public String getLabel() {
            return label;
        }

        public void setLabel(String label) {
            this.label = label;
        }
    }
}
