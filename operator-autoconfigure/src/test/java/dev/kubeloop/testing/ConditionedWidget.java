package dev.kubeloop.testing;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * The Widget CRD read through a status that has conditions ({@code widgets.kubeloop.dev/v1}, the
 * same objects as {@link Widget}): for what the runtime does only to a status with conditions.
 */
@Group("kubeloop.dev")
@Version("v1")
@Kind("Widget")
public class ConditionedWidget extends CustomResource<Widget.Spec, ConditionedWidget.Status> implements Namespaced {

    private static final long serialVersionUID = 1L;

    public static ConditionedWidget named(String namespace, String name) {
        ConditionedWidget widget = new ConditionedWidget();
        widget.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        widget.setSpec(new Widget.Spec());
        widget.getSpec().setColor("blue");
        return widget;
    }

    /** Observed state, with conditions. */
    public static class Status {
        private String message;
        private List<Condition> conditions;

        public String getMessage() {
            return message;
        }

        public void setMessage(String message) {
            this.message = message;
        }

        public List<Condition> getConditions() {
            return conditions;
        }

        public void setConditions(List<Condition> conditions) {
            this.conditions = conditions;
        }
    }
}
