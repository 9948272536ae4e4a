package dev.kubeloop.testing;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import java.time.Duration;

/**
 * One replica's Widget reconciler in a leader election test: reports every reconcile to the
 * shared {@link FencingRegister} and works for a while (interruptibly), so that two replicas
 * acting at once would overlap.
 */
public class FencedWidgetReconciler implements ResourceReconciler<Widget> {

    private final String replica;
    private final FencingRegister register;
    private final Duration work;

    public FencedWidgetReconciler(String replica, FencingRegister register, Duration work) {
        this.replica = replica;
        this.register = register;
        this.work = work;
    }

    @Override
    public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
        String key = context.key().toString();
        long generation = widget.getMetadata().getGeneration() == null ? 0 : widget.getMetadata().getGeneration();
        long start = register.enter(replica, key);
        try {
            if (!work.isZero()) {
                Thread.sleep(work.toMillis()); // simulated work; an interrupt ends it, as it would a real call
            }
            return Result.done();
        } finally {
            register.leave(replica, key, generation, start);
        }
    }
}
