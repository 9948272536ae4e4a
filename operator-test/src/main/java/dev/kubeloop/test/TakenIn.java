package dev.kubeloop.test;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which version of each object every controller has taken in (queued what its event asked for,
 * or dropped it as the echo of its own write), as the runtime reports it
 * ({@code ControllerListener.eventTakenIn}); and whether a controller has taken in everything the
 * API server has now in the scopes of its informers. That is what lets the kit's waits promise
 * that an object the test just wrote, or a reconcile just wrote, has reached the controller (and
 * queued its reconcile) before they look at the queue.
 *
 * <p>Versions compare as numbers (etcd revisions, as the API server and the mock issue them), or
 * for equality if they are not numbers. An object deleted on the server must have been taken in as
 * deleted, for informers without label or field selectors (with them, an object may also leave the
 * scope by a change).
 *
 * <p>Thread-safety: {@link #taken} runs on informer threads; the maps are concurrent; the checks
 * run on the test's thread.
 */
final class TakenIn {

    private static final String DELETED = "";

    /** Per controller: resource/namespace/name to the last version taken in ({@link #DELETED} once deleted). */
    private final Map<String, Map<Ref, String>> versions = new ConcurrentHashMap<>();

    private record Ref(String resource, String namespace, String name) {
    }

    void taken(String controller, HasMetadata object, boolean delete) {
        Ref ref = new Ref(HasMetadata.getFullResourceName(object.getClass()), object.getMetadata().getNamespace(),
                object.getMetadata().getName());
        versions.computeIfAbsent(controller, name -> new ConcurrentHashMap<>()).put(ref,
                delete ? DELETED : Objects.requireNonNullElse(object.getMetadata().getResourceVersion(), DELETED));
    }

    /** Null if {@code controller} has taken in what the API server has in its informers' scopes; else what it lacks. */
    String lagging(Controller<?> controller, KubernetesClient client) {
        Map<Ref, String> seen = versions.getOrDefault(controller.name(), Map.of());
        for (InformerStatus informer : controller.status().informers()) {
            if (informer.waiting()) {
                continue;
            }
            String apiVersion = informer.group().isEmpty() ? informer.version()
                    : informer.group() + "/" + informer.version();
            var resources = client.genericKubernetesResources(apiVersion, informer.kind());
            var scoped = informer.namespace() == null ? resources.inAnyNamespace()
                    : resources.inNamespace(informer.namespace());
            Set<Ref> onServer = new HashSet<>();
            for (GenericKubernetesResource object : scoped.list(new ListOptionsBuilder()
                    .withLabelSelector(informer.labelSelector().isEmpty() ? null : informer.labelSelector())
                    .withFieldSelector(informer.fieldSelector().isEmpty() ? null : informer.fieldSelector())
                    .build()).getItems()) {
                Ref ref = new Ref(informer.resource(), object.getMetadata().getNamespace(),
                        object.getMetadata().getName());
                onServer.add(ref);
                String taken = seen.get(ref);
                if (taken == null || taken.equals(DELETED)
                        || !atLeast(taken, object.getMetadata().getResourceVersion())) {
                    return controller.name() + " has not yet taken in " + informer.kind() + " "
                            + describe(ref) + " at version " + object.getMetadata().getResourceVersion()
                            + " (last taken in: " + (taken == null ? "none" : taken.isEmpty() ? "deleted" : taken) + ")";
                }
            }
            if (!informer.labelSelector().isEmpty() || !informer.fieldSelector().isEmpty()) {
                continue;
            }
            for (Map.Entry<Ref, String> entry : seen.entrySet()) {
                Ref ref = entry.getKey();
                boolean inScope = ref.resource().equals(informer.resource())
                        && (informer.namespace() == null || informer.namespace().equals(ref.namespace()));
                if (inScope && !entry.getValue().equals(DELETED) && !onServer.contains(ref)) {
                    return controller.name() + " has not yet taken in the deletion of " + informer.kind() + " "
                            + describe(ref);
                }
            }
        }
        return null;
    }

    private static boolean atLeast(String taken, String current) {
        try {
            return Long.parseLong(taken) >= Long.parseLong(current);
        } catch (NumberFormatException e) {
            return taken.equals(current);
        }
    }

    private static String describe(Ref ref) {
        return ref.namespace() == null ? ref.name() : ref.namespace() + "/" + ref.name();
    }
}
