package dev.kubeloop.autoconfigure.tracing;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.MDC;

/**
 * Applies one ConfigMap per Widget (an owned object: an API request in the reconcile's trace),
 * keeps a finalizer (the finalizer step) and remembers the MDC's trace id of each key's last
 * reconcile. Thread-safe.
 */
@Reconciler(name = "traced", owns = ConfigMap.class)
public class TracedReconciler implements ResourceReconciler<Widget>, Cleaner<Widget> {

    private final Map<String, String> traceIds = new ConcurrentHashMap<>();

    @Override
    public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
        traceIds.put(context.key().toString(), String.valueOf(MDC.get("traceId")));
        context.apply(new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName()).endMetadata()
                .addToData("color", widget.getSpec().getColor()).build());
        return Result.done();
    }

    @Override
    public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
        return Result.done();
    }

    /** The MDC's {@code traceId} during the last reconcile of {@code key}; null before one. */
    public String traceId(String key) {
        return traceIds.get(key);
    }
}
