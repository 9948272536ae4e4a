#set( $symbol_dollar = '$' )
package ${package};

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.conditions.ConditionStatus;
import dev.kubeloop.api.conditions.Conditions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.ArrayList;
#if ($namespaced == 'false')
import org.springframework.beans.factory.annotation.Value;
#end

/**
 * Drives each ${kind} towards its spec: a ConfigMap named after it holds {@code spec.message}.
 * Level-triggered: it never learns what happened, it reads the latest ${kind} and makes the world
 * match.
 *
 * <ul>
 *   <li>{@code context.apply} writes the ConfigMap with server-side apply and makes the ${kind} its
 *       controller owner. ConfigMaps are watched as owned ({@code owns}), so one that someone edits
 *       or deletes is repaired at once (a Repaired event says so), and Kubernetes deletes it with
 *       its ${kind}. Nothing is sent when it is already as wanted.
 *   <li>The status says which generation it describes and whether the ${kind} is Ready
 *       ({@link Conditions}); {@code applyStatus} sends nothing when it is unchanged.
 *   <li>An exception is retried with per-object exponential backoff; return
 *       {@code Result.requeueAfter(duration)} to look again later.
 * </ul>
 */
// deletes: Kubeloop prunes an owned ConfigMap this reconciler applied before and no longer applies (one
// whose name the code stopped using, say); the generated RBAC grants delete on what is listed here only
@Reconciler(name = "${kind.toLowerCase()}", owns = ConfigMap.class, deletes = ConfigMap.class)
public class ${kind}Reconciler implements ResourceReconciler<${kind}> {

    static final String READY = "Ready";
    static final String MESSAGE_KEY = "message";
#if ($namespaced == 'false')

    /** ${kind} is cluster-scoped and ConfigMaps are not: they go to the operator's namespace. */
    private final String namespace;

    public ${kind}Reconciler(@Value("${symbol_dollar}{operator.namespace:default}") String namespace) {
        this.namespace = namespace;
    }
#end

    @Override
    public Result reconcile(${kind} resource, ReconcileContext<${kind}> context) {
        ConfigMap configMap = new ConfigMapBuilder()
                .withNewMetadata()
                    .withName(resource.getMetadata().getName())
#if ($namespaced == 'false')
                    .withNamespace(namespace)
#end
                .endMetadata()
                .addToData(MESSAGE_KEY, resource.getSpec().getMessage())
                .build();
        context.apply(configMap); // Kubeloop adds the owner reference and records Created/Updated/Repaired events

        ${kind}Status status = resource.getStatus() == null ? new ${kind}Status() : resource.getStatus();
        if (status.getConditions() == null) {
            status.setConditions(new ArrayList<>());
        }
        Long generation = resource.getMetadata().getGeneration();
        status.setObservedGeneration(generation);
        boolean changed = Conditions.set(status.getConditions(), READY, ConditionStatus.TRUE, "ConfigMapApplied",
                "ConfigMap " + configMap.getMetadata().getName() + " holds the message", generation);
        resource.setStatus(status);
        if (changed) { // once per generation, not on every resync
            context.events().normal(resource, "MessagePublished", "Message of generation " + generation + " published");
        }
        context.applyStatus(resource);
        return Result.done();
    }
}
