package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a controller deleting (pruning, {@code context.delete}) a kind its
 * {@code @Reconciler(deletes)} does not list. The RBAC {@code kubeloop:manifests} generates grants
 * {@code delete} on the listed kinds only, so such a delete works on the embedded API server and
 * on a hand-written Role but is refused (403) in a cluster running the generated chart: said once
 * per kind in a WARN line, and on every such delete to the controller's listener (the test kit
 * fails the test with {@link #advice}).
 *
 * <p>Kinds are compared by API group and kind, not by class: {@code deletes()} holds model classes,
 * while an object deleted may be a {@code GenericKubernetesResource} of the same kind (RBAC rules
 * name the group and resource, never the Java class).
 *
 * <p>State ownership: the declared kinds are immutable; the set of kinds warned about is a
 * concurrent set the workers add to after a delete the API server accepted.
 */
final class UndeclaredDeletes {

    // the controller's logger, like every other line about a reconcile
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String controller;
    private final Set<Kind> declared;
    private final Set<Kind> warned = ConcurrentHashMap.newKeySet();
    private final ControllerListener listener;

    /** A kind as an RBAC rule names it: by API group (empty for the core group), not by version. */
    private record Kind(String group, String kind) {
        static Kind of(Class<? extends HasMetadata> type) {
            return new Kind(groupOf(HasMetadata.getApiVersion(type)), HasMetadata.getKind(type));
        }

        static Kind of(HasMetadata object) {
            String apiVersion = object.getApiVersion() != null ? object.getApiVersion()
                    : HasMetadata.getApiVersion(object.getClass());
            String kind = object.getKind() != null ? object.getKind() : HasMetadata.getKind(object.getClass());
            return new Kind(groupOf(apiVersion), kind);
        }

        private static String groupOf(String apiVersion) {
            int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
            return slash < 0 ? "" : apiVersion.substring(0, slash);
        }
    }

    UndeclaredDeletes(String controller, Collection<Class<? extends HasMetadata>> deletes,
            ControllerListener listener) {
        this.controller = controller;
        Set<Kind> kinds = new HashSet<>();
        deletes.forEach(type -> kinds.add(Kind.of(type)));
        this.declared = Set.copyOf(kinds);
        this.listener = listener;
    }

    /** After the API server took a delete of {@code object} by a reconcile of {@code primary}. */
    void deleted(HasMetadata primary, HasMetadata object) {
        Kind kind = Kind.of(object);
        if (declared.contains(kind)) {
            return;
        }
        String advice = advice(controller, kind.kind());
        if (warned.add(kind)) {
            log.warn("Deleted a kind the reconciler does not declare: controller={} key={} kind={}: {}", controller,
                    ObjectKey.of(primary), kind.group().isEmpty() ? kind.kind() : kind.kind() + "." + kind.group(),
                    advice);
        }
        listener.undeclaredDelete(object, advice);
    }

    /** What is wrong and the fix, in one sentence for the log line and the test kit's failure. */
    static String advice(String controller, String kind) {
        return "controller " + controller + " deleted an object of kind " + kind + ", but its @Reconciler does not declare "
                + "deletes = " + kind + ".class; the RBAC kubeloop:manifests generates from the code grants no "
                + "delete without it, so in a cluster this delete is refused (403): add " + kind
                + ".class to @Reconciler(deletes)";
    }
}
