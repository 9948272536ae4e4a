package dev.kubeloop.test;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The kit's test resource: {@code gadgets.kit.kubeloop.dev/v1}; its CRD is in
 * src/test/resources/META-INF/fabric8, where fabric8's generator would write it.
 */
@Group("kit.kubeloop.dev")
@Version("v1")
public class Gadget extends CustomResource<Gadget.Spec, Gadget.Status> implements Namespaced {

    private static final long serialVersionUID = 1L;

    static Gadget named(String namespace, String name) {
        Gadget gadget = new Gadget();
        gadget.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        gadget.setSpec(new Spec());
        return gadget;
    }

    /** Desired state: a size, and whether the reconciler should fail. */
    public static class Spec {
        private int size;
        private boolean fail;

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }

        public boolean isFail() {
            return fail;
        }

        public void setFail(boolean fail) {
            this.fail = fail;
        }
    }

    /** Observed state. */
    public static class Status {
        private Long observedGeneration;

        public Long getObservedGeneration() {
            return observedGeneration;
        }

        public void setObservedGeneration(Long observedGeneration) {
            this.observedGeneration = observedGeneration;
        }
    }
}
