package dev.kubeloop.manifest;

import dev.kubeloop.api.watch.Watch;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;

/**
 * The RBAC rules an application needs, derived from what its reconcilers declare: least
 * privilege, merged per API group and resource and sorted, so the same code always gives the same
 * rules. {@code workload}: in every namespace the reconcilers work in (a Role in each, or one
 * ClusterRole); {@code releaseNamespace}: in the namespace the operator runs in (its Leases).
 *
 * <p>The table (docs/security.md, "RBAC from the code"):
 * <ul>
 * <li>primary kind: get, list, watch (its informer); patch when the reconciler is a
 *     {@code Cleaner} (the finalizer) or replicas shard (the slot label); {@code <plural>/status}:
 *     patch, for a custom resource with a status (applyStatus, updateStatus and the runtime's
 *     Stalled condition are patches); {@code <plural>/finalizers}: update when it owns kinds (the
 *     owner references it writes block the owner's deletion, which the API server allows only to
 *     who may update the owner's finalizers);
 * <li>owned kinds: get, list, watch, create, patch (server-side apply creates and patches);
 * <li>{@code @Reconciler(deletes)} kinds: delete (pruning, {@code context.delete});
 * <li>watched kinds, metadata-only or not: list, watch;
 * <li>Events (core group): create, patch, for every application with a reconciler;
 * <li>leader election: Leases get, list, watch, create, update, patch; sharding: the same and
 *     delete (a leaving replica deletes its Lease); both in the release namespace.
 * </ul>
 * Discovery at start (the served-resource check, optional kinds) reads non-resource URLs that every
 * authenticated user may read ({@code system:discovery}), so it needs no rule. Immutable.
 */
public record ApplicationAccess(List<AccessRule> workload, List<AccessRule> releaseNamespace) {

    /** How the replicas coordinate: each way needs its own Leases. */
    public enum Coordination {
        NONE, LEADER_ELECTION, SHARDING
    }

    private static final String[] READ = {"get", "list", "watch"};
    private static final String[] WATCH = {"list", "watch"};

    public ApplicationAccess {
        workload = List.copyOf(workload);
        releaseNamespace = List.copyOf(releaseNamespace);
    }

    /** The rules of {@code reconcilers} running with {@code coordination}. */
    public static ApplicationAccess derive(List<ReconcilerAccess> reconcilers, Coordination coordination) {
        Objects.requireNonNull(coordination, "coordination");
        AccessRules workload = new AccessRules();
        for (ReconcilerAccess reconciler : reconcilers) {
            var config = reconciler.config();
            Class<? extends HasMetadata> primary = config.primaryType();
            workload.grant(primary, READ);
            if (reconciler.cleaner() || coordination == Coordination.SHARDING) {
                workload.grant(primary, "patch");
            }
            if (hasStatus(primary)) {
                workload.grant(HasMetadata.getGroup(primary), HasMetadata.getPlural(primary) + "/status", "patch");
            }
            if (!config.owns().isEmpty()) {
                workload.grant(HasMetadata.getGroup(primary), HasMetadata.getPlural(primary) + "/finalizers",
                        "update");
            }
            config.owns().forEach(owned -> workload.grant(owned, "get", "list", "watch", "create", "patch"));
            config.deletes().forEach(deleted -> workload.grant(deleted, "delete"));
            for (Watch<?> watch : config.declarations().watches()) {
                workload.grant(watch.type(), WATCH);
            }
        }
        if (!reconcilers.isEmpty()) {
            workload.grant("", "events", "create", "patch");
        }
        AccessRules leases = new AccessRules();
        switch (coordination) {
            case NONE -> { }
            case LEADER_ELECTION -> leases.grant(Lease.class, "get", "list", "watch", "create", "update", "patch");
            case SHARDING -> leases.grant(Lease.class, "get", "list", "watch", "create", "update", "patch", "delete");
        }
        return new ApplicationAccess(workload.rules(), leases.rules());
    }

    /** What this grants beyond {@code base}: the rules a chart option adds when it is switched on. */
    public ApplicationAccess beyond(ApplicationAccess base) {
        return new ApplicationAccess(AccessRules.beyond(workload, base.workload),
                AccessRules.beyond(releaseNamespace, base.releaseNamespace));
    }

    public boolean isEmpty() {
        return workload.isEmpty() && releaseNamespace.isEmpty();
    }

    /** A custom resource whose status type is not {@code Void}: the CRD generator gives it a status subresource. */
    private static boolean hasStatus(Class<?> type) {
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            Type superType = current.getGenericSuperclass();
            if (superType instanceof ParameterizedType parameterized && parameterized.getRawType() == CustomResource.class) {
                Type status = parameterized.getActualTypeArguments()[1];
                return status != Void.class;
            }
        }
        return false;
    }
}
