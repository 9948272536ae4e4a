package dev.kubeloop.sample.website;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * Creates a Website's owned objects, and repairs them when someone edited them: the existing
 * object is read from the informer cache, compared on the fields the operator sets, and updated
 * with its cached resourceVersion, so a concurrent change is a 409 (a quiet requeue in Kubeloop)
 * instead of a lost update. Stateless.
 */
final class OwnedObjects {

    /** What {@link #ensure} did. */
    enum Change { NONE, CREATED, REPAIRED }

    /** The object exists but another owner (or nobody) controls it: the operator will not take it over. */
    static final class ForeignObjectException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ForeignObjectException(HasMetadata object) {
            super(object.getKind() + " " + object.getMetadata().getName()
                    + " already exists and is not controlled by this Website");
        }
    }

    private OwnedObjects() {
    }

    static OwnerReference controllerReference(Website site) {
        return new OwnerReferenceBuilder().withApiVersion(site.getApiVersion()).withKind(site.getKind())
                .withName(site.getMetadata().getName()).withUid(site.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }

    static Change ensure(Website site, ReconcileContext<Website> context, ConfigMap desired) {
        return ensure(site, context, ConfigMap.class, desired, WebsiteResources::matches, (copy, want) -> copy.setData(want.getData()));
    }

    static Change ensure(Website site, ReconcileContext<Website> context, Deployment desired) {
        return ensure(site, context, Deployment.class, desired, WebsiteResources::matches, (copy, want) -> {
            var spec = copy.getSpec();
            spec.setReplicas(want.getSpec().getReplicas());
            spec.setSelector(want.getSpec().getSelector());
            var template = spec.getTemplate();
            template.getMetadata().setLabels(merged(template.getMetadata().getLabels(),
                    want.getSpec().getTemplate().getMetadata().getLabels()));
            template.getMetadata().setAnnotations(merged(template.getMetadata().getAnnotations(),
                    want.getSpec().getTemplate().getMetadata().getAnnotations()));
            template.getSpec().setContainers(want.getSpec().getTemplate().getSpec().getContainers());
            template.getSpec().setVolumes(want.getSpec().getTemplate().getSpec().getVolumes());
        });
    }

    static Change ensure(Website site, ReconcileContext<Website> context, Service desired) {
        return ensure(site, context, Service.class, desired, WebsiteResources::matches, (copy, want) -> {
            copy.getSpec().setPorts(want.getSpec().getPorts());
            copy.getSpec().setSelector(want.getSpec().getSelector());
        });
    }

    private static <R extends HasMetadata> Change ensure(Website site, ReconcileContext<Website> context,
            Class<R> type, R desired, BiPredicate<R, R> matches, BiConsumer<R, R> repair) {
        desired.getMetadata().setOwnerReferences(new ArrayList<>(List.of(controllerReference(site))));
        ObjectKey key = new ObjectKey(desired.getMetadata().getNamespace(), desired.getMetadata().getName());
        Optional<R> cached = context.cached(type, key);
        if (cached.isEmpty()) {
            context.client().resource(desired).create();
            return Change.CREATED;
        }
        R existing = cached.get();
        if (!controlledBy(existing, site)) {
            throw new ForeignObjectException(existing);
        }
        if (matches.test(existing, desired)) {
            return Change.NONE;
        }
        R copy = context.client().getKubernetesSerialization().clone(existing);
        copy.getMetadata().setLabels(merged(copy.getMetadata().getLabels(), desired.getMetadata().getLabels()));
        repair.accept(copy, desired);
        context.client().resource(copy).update(); // locked on the cached resourceVersion
        return Change.REPAIRED;
    }

    static boolean controlledBy(HasMetadata object, Website site) {
        return object.getMetadata().getOwnerReferences() != null && object.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> Boolean.TRUE.equals(ref.getController())
                        && site.getMetadata().getUid().equals(ref.getUid()));
    }

    private static Map<String, String> merged(Map<String, String> have,
            Map<String, String> want) {
        Map<String, String> result = have == null ? new LinkedHashMap<>() : new LinkedHashMap<>(have);
        if (want != null) {
            result.putAll(want);
        }
        return result;
    }
}
