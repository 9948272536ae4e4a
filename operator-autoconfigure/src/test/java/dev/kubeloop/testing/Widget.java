package dev.kubeloop.testing;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The test CRD: {@code widgets.kubeloop.dev/v1}, namespaced, with spec and a status subresource. */
@Group("kubeloop.dev")
@Version("v1")
public class Widget extends CustomResource<Widget.Spec, Widget.Status> implements Namespaced {

    private static final long serialVersionUID = 1L;

    public static Widget named(String namespace, String name) {
        Widget widget = new Widget();
        widget.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        widget.setSpec(new Spec());
        widget.getSpec().setColor("blue");
        return widget;
    }

    /** {@link #named} with {@code spec.size}. */
    public static Widget sized(String namespace, String name, int size) {
        Widget widget = named(namespace, name);
        widget.getSpec().setSize(size);
        return widget;
    }

    public Widget withLabel(String key, String value) {
        getMetadata().getLabels().put(key, value);
        return this;
    }

    /** Desired state. */
    public static class Spec {
        private String color;
        private int size;
        /** A Secret in the Widget's namespace it refers to (not owned): what watch tests map through. */
        private String secretName;

        public String getSecretName() {
            return secretName;
        }

        public void setSecretName(String secretName) {
            this.secretName = secretName;
        }

        public String getColor() {
            return color;
        }

        public void setColor(String color) {
            this.color = color;
        }

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }
    }

    /** Observed state. */
    public static class Status {
        private Long observedGeneration;
        private String message;

        public Long getObservedGeneration() {
            return observedGeneration;
        }

        public void setObservedGeneration(Long observedGeneration) {
            this.observedGeneration = observedGeneration;
        }

        public String getMessage() {
            return message;
        }

        public void setMessage(String message) {
            this.message = message;
        }
    }
}
