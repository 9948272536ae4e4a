package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.client.JsonPatch;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The finalizer protocol, all of it (kube-rs keeps it in one module too): which finalizer a
 * controller manages, when it is added and when it is removed. The {@link ReconcileHandler} calls
 * {@link #beforeReconcile} on an object that is not being deleted, and {@link #cleanup} instead of
 * {@code reconcile} on one that is.
 *
 * <ul>
 *   <li>A controller manages a finalizer exactly when its reconciler implements {@link Cleaner}:
 *       an explicit opt-in, which JDK and CGLIB proxies keep (they implement the target's
 *       interfaces), where guessing from an overridden method could not tell. The name is
 *       {@code @Reconciler(finalizer)} or {@code <name>.kubeloop.dev/finalizer}. Naming one
 *       without implementing {@code Cleaner} fails start-up: that finalizer would only hold
 *       objects back.
 *   <li>An object not being deleted gets the finalizer first (one patch), then {@code reconcile}
 *       on the object as stored.
 *   <li>An object being deleted that carries our finalizer gets {@code cleanup}, and the finalizer
 *       is removed only after cleanup returned done; one that does not carry it is left alone:
 *       nothing of ours holds it, and {@code reconcile} is never called for a deleted object.
 * </ul>
 *
 * Both patches touch only {@code metadata.finalizers} and are locked on the object's
 * resourceVersion (the removal on the version cleanup's own writes left, not the one it started
 * from): another controller's finalizer added meanwhile makes the patch fail with 409 (the key is
 * retried on the newer object) instead of being overwritten. Immutable; thread-safe.
 */
final class FinalizerProtocol<T extends HasMetadata> {

    /** The suffix of the default finalizer name. */
    static final String DEFAULT_FINALIZER_SUFFIX = ".kubeloop.dev/finalizer";

    private final Cleaner<T> cleaner;
    private final String finalizer;
    /** The controller's field manager: the API server records the finalizer as the controller's. */
    private final String fieldManager;

    private FinalizerProtocol(Cleaner<T> cleaner, String finalizer, String fieldManager) {
        this.cleaner = cleaner;
        this.finalizer = finalizer;
        this.fieldManager = fieldManager;
    }

    /**
     * The protocol for {@code reconciler} with {@code config}.
     *
     * @throws KubeloopConfigurationException if a finalizer is named but the reconciler is no {@link Cleaner}
     */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> FinalizerProtocol<T> of(ControllerConfig<T> config, ResourceReconciler<T> reconciler) {
        if (!(reconciler instanceof Cleaner<?> cleaner)) {
            if (config.finalizer().isPresent()) {
                throw new KubeloopConfigurationException("Reconciler '" + config.name() + "' names the finalizer '"
                        + config.finalizer().get() + "' but does not implement " + Cleaner.class.getName()
                        + ", so nothing would ever release it.",
                        "Implement Cleaner<" + config.primaryType().getSimpleName() + "> (its cleanup runs before "
                                + "the finalizer is removed), or remove the finalizer setting.",
                        config.name(), "finalizer", null);
            }
            return new FinalizerProtocol<>(null, null, null);
        }
        String finalizer = config.finalizer().orElse(config.name() + DEFAULT_FINALIZER_SUFFIX);
        return new FinalizerProtocol<>((Cleaner<T>) cleaner, finalizer, config.fieldManager());
    }

    /** The finalizer managed, if any. */
    Optional<String> finalizer() {
        return Optional.ofNullable(finalizer);
    }

    /**
     * Before {@code reconcile} of an object that is not being deleted: adds the finalizer if this
     * controller manages one and the object lacks it.
     *
     * @return the object to reconcile: {@code object}, or the object as stored after the patch
     */
    T beforeReconcile(T object, KubernetesClient client, Sender<T> sender) {
        return cleaner == null || has(object) ? object : sender.send(object, () -> add(client, object));
    }

    /** Sends a patch of the primary (the finalizer's), as a write of the reconcile; returns the object as stored. */
    interface Sender<T> {
        T send(T target, Supplier<T> patch);
    }

    /**
     * Instead of {@code reconcile} of an object being deleted: runs {@code cleanup} if the object
     * carries our finalizer, and removes the finalizer once cleanup returned done.
     *
     * @param sender sends the finalizer's removal
     * @param newest the object as cleanup's own writes left it (its status, say): the removal is
     *     locked on that version, so a cleanup that writes is not refused by its own writes (a 409
     *     that would run it again, write again, and never let the object go)
     * @return what cleanup returned; done when there is nothing of ours to clean up
     */
    Result cleanup(T object, ReconcileContext<T> context, KubernetesClient client, Sender<T> sender,
            Supplier<T> newest) throws Exception {
        if (cleaner == null || !has(object)) {
            return Result.done();
        }
        Result result = cleaner.cleanup(object, context);
        if (result != null && result.kind() == Result.Kind.DONE) {
            T latest = newest.get();
            if (has(latest)) {
                sender.send(latest, () -> remove(client, latest));
            }
        }
        return result;
    }

    private boolean has(HasMetadata object) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        return finalizers != null && finalizers.contains(finalizer);
    }

    /** Adds the finalizer; returns the object as stored. */
    private T add(KubernetesClient client, T object) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        JsonPatch patch = new JsonPatch().fieldManager(fieldManager).expectResourceVersion(object);
        if (finalizers == null || finalizers.isEmpty()) {
            patch.add("/metadata/finalizers", List.of(finalizer));
        } else {
            patch.add("/metadata/finalizers/-", finalizer);
        }
        return patch.applyTo(client, object);
    }

    /** Removes the finalizer (present: checked by the caller); returns the object as stored. */
    private T remove(KubernetesClient client, T object) {
        int index = object.getMetadata().getFinalizers().indexOf(finalizer);
        // the resourceVersion lock keeps the index right: if the list changed, the patch fails
        return new JsonPatch().fieldManager(fieldManager).expectResourceVersion(object).remove("/metadata/finalizers/" + index)
                .applyTo(client, object);
    }
}
