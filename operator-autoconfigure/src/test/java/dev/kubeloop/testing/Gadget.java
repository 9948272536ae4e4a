package dev.kubeloop.testing;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A second test CRD, cluster-scoped: {@code gadgets.kubeloop.dev/v1}, not installed by default, for
 * optional types (installed while a test runs) and cluster-scoped watches.
 */
@Group("kubeloop.dev")
@Version("v1")
public class Gadget extends CustomResource<Gadget.Spec, Void> {

    private static final long serialVersionUID = 1L;

    public static Gadget named(String name, String widgetNamespace) {
        Gadget gadget = new Gadget();
        gadget.setMetadata(new ObjectMetaBuilder().withName(name).build());
        gadget.setSpec(new Spec());
        gadget.getSpec().setWidgetNamespace(widgetNamespace);
        return gadget;
    }

    /** Which namespace's Widgets it concerns. */
    public static class Spec {
        private String widgetNamespace;

        public String getWidgetNamespace() {
            return widgetNamespace;
        }

        public void setWidgetNamespace(String widgetNamespace) {
            this.widgetNamespace = widgetNamespace;
        }
    }
}
