package dev.kubeloop.test;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

/** Keeps one owned ConfigMap per Gadget with its size, writes observedGeneration; fails when asked. */
@Reconciler(name = "gadget", owns = ConfigMap.class)
public class GadgetReconciler implements ResourceReconciler<Gadget> {

    @Override
    public Result reconcile(Gadget gadget, ReconcileContext<Gadget> context) {
        if (gadget.getSpec().isFail()) {
            throw new IllegalStateException("boom: gadget " + gadget.getMetadata().getName() + " asked to fail");
        }
        ConfigMap desired = new ConfigMapBuilder().withNewMetadata().withName(gadget.getMetadata().getName())
                .withNamespace(gadget.getMetadata().getNamespace()).endMetadata()
                .addToData("size", Integer.toString(gadget.getSpec().getSize())).build();
        desired.addOwnerReference(gadget);
        desired.getMetadata().getOwnerReferences().get(0).setController(true);
        if (context.owned(ConfigMap.class).isEmpty()) {
            context.client().resource(desired).create();
            context.events().normal(gadget, "Created", "Created ConfigMap " + gadget.getMetadata().getName());
        } else {
            context.client().resource(desired).update();
        }
        gadget.setStatus(new Gadget.Status());
        gadget.getStatus().setObservedGeneration(gadget.getMetadata().getGeneration());
        context.updateStatus(gadget);
        return Result.done();
    }
}
