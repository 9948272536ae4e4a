package dev.kubeloop.autoconfigure.actuator;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ends each Widget the way its name says, on the first reconcile of that object: {@code flaky}
 * throws once, {@code broken} fails terminally every time, {@code again} asks for a requeue once,
 * {@code later} for a requeue after 20 ms once; everything else (and every later reconcile)
 * succeeds. Thread-safe.
 */
@Reconciler(name = "widget", workers = 2)
public class OutcomeReconciler implements ResourceReconciler<Widget> {

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
        String name = widget.getMetadata().getName();
        int call = calls.computeIfAbsent(context.key().toString(), key -> new AtomicInteger()).incrementAndGet();
        return switch (name) {
            case "flaky" -> {
                if (call == 1) {
                    throw new IllegalStateException("dependency not ready");
                }
                yield Result.done();
            }
            case "broken" -> throw new TerminalException("spec.size must be positive");
            case "again" -> call == 1 ? Result.requeue() : Result.done();
            case "later" -> call == 1 ? Result.requeueAfter(Duration.ofMillis(20)) : Result.done();
            default -> Result.done();
        };
    }

    /** How often {@code key} was reconciled. */
    public int calls(String key) {
        AtomicInteger count = calls.get(key);
        return count == null ? 0 : count.get();
    }
}
