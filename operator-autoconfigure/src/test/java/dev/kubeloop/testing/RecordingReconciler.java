package dev.kubeloop.testing;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.MDC;

/**
 * A Widget reconciler that records every call (key, generation, retry count, thread, MDC) and
 * delegates the decision to a replaceable {@link Behaviour}. Thread-safe.
 */
public class RecordingReconciler implements ResourceReconciler<Widget> {

    /** What a reconcile does. */
    @FunctionalInterface
    public interface Behaviour {
        Result apply(Widget widget, ReconcileContext<Widget> context) throws Exception;
    }

    /** One recorded call. */
    public record Call(String key, Long generation, int retryCount, String thread, Map<String, String> mdc,
            long startedNanos, Widget widget) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile Behaviour behaviour = (widget, context) -> Result.done();

    public RecordingReconciler behaving(Behaviour behaviour) {
        this.behaviour = behaviour;
        return this;
    }

    @Override
    public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        calls.add(new Call(context.key().toString(), widget.getMetadata().getGeneration(), context.retryCount(),
                Thread.currentThread().getName(), mdc == null ? Map.of() : mdc, System.nanoTime(), widget));
        return behaviour.apply(widget, context);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> callsFor(String key) {
        return calls.stream().filter(call -> call.key().equals(key)).toList();
    }

    public int count(String key) {
        return callsFor(key).size();
    }

    /** Forgets the calls recorded so far, e.g. once a test's initial reconciles are done. */
    public void reset() {
        calls.clear();
    }
}
