package dev.kubeloop.webhook;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The webhook tests' hub: {@code kubeloop.dev/v2 Shelf}, whose {@code spec.books} was {@code bookCount} in v1. */
@Group("kubeloop.dev")
@Version("v2")
public class Shelf extends CustomResource<Shelf.Spec, Void> implements Namespaced {

    private static final long serialVersionUID = 1L;

    static Shelf named(String name, Integer books) {
        Shelf shelf = new Shelf();
        shelf.setMetadata(new ObjectMetaBuilder().withNamespace("test").withName(name).build());
        shelf.setSpec(new Spec());
        shelf.getSpec().setBooks(books);
        return shelf;
    }

    /** Desired state; {@code color} has a Java default, {@code lighting} is nested. */
    public static class Spec {
        private Integer books;
        private String label;
        private String color = "oak";
        private Lighting lighting;

        public Integer getBooks() {
            return books;
        }

        public void setBooks(Integer books) {
            this.books = books;
        }

        public String getLabel() {
            return label;
        }

        public void setLabel(String label) {
            this.label = label;
        }

        public String getColor() {
            return color;
        }

        public void setColor(String color) {
            this.color = color;
        }

        public Lighting getLighting() {
            return lighting;
        }

        public void setLighting(Lighting lighting) {
            this.lighting = lighting;
        }
    }

    /** A nested object, to default below a member the request lacks. */
    public static class Lighting {
        private String lamp;

        public String getLamp() {
            return lamp;
        }

        public void setLamp(String lamp) {
            this.lamp = lamp;
        }
    }
}
