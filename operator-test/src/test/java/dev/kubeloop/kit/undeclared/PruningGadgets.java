package dev.kubeloop.kit.undeclared;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.test.Gadget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An operator whose reconciler prunes a kind it does not declare: one ConfigMap per size of the
 * Gadget, so a new size prunes the last one, and no {@code deletes = ConfigMap.class}. Outside
 * {@code dev.kubeloop.test}, so that the kit's other tests' scan does not find it.
 */
@SpringBootApplication
public class PruningGadgets {

    @Reconciler(name = "pruning-gadget", owns = ConfigMap.class)
    public static class PruningGadgetReconciler implements ResourceReconciler<Gadget> {

        @Override
        public Result reconcile(Gadget gadget, ReconcileContext<Gadget> context) {
            context.apply(new ConfigMapBuilder().withNewMetadata()
                    .withName(gadget.getMetadata().getName() + "-" + gadget.getSpec().getSize()).endMetadata()
                    .addToData("size", Integer.toString(gadget.getSpec().getSize())).build());
            gadget.setStatus(new Gadget.Status());
            gadget.getStatus().setObservedGeneration(gadget.getMetadata().getGeneration());
            context.updateStatus(gadget);
            return Result.done();
        }
    }
}
