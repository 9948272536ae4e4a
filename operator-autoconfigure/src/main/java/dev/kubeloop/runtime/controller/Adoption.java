package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.cache.OwnerIndex;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whose an existing object is, before an owned apply gives it the primary's controller owner
 * reference (and forces its fields): apply never takes over an object this controller does not
 * control unless the reconciler asks for it. controller-runtime's {@code SetControllerReference}
 * refuses an object another owner controls; this also refuses one that this controller never
 * applied, such as a user's Service that happens to have the name.
 *
 * <pre>
 * the object under the name                                  apply
 * absent                                                     creates it
 * controlled by the primary (controller ref with its uid)    applies
 * controlled by a former primary of its kind and name,       takes it back (Adopted event)
 *   with this controller's marks
 * controlled by any other owner                              refused, even with adopt()
 * no controller, this controller's marks                     takes it back (Adopted event)
 * no controller, no marks                                    refused; with adopt(): takes it (Adopted event)
 * </pre>
 *
 * This controller's marks: the label {@value ControllerWrites#APPLIED_BY} (or, for a retained
 * object, {@value ControllerWrites#RETAINED_BY}) with its name, which every owned apply has
 * written; or an {@code Apply} entry of the apply's field manager (or the
 * controller's) in managedFields: an object applied before its kind was owned, or applied as
 * {@code notOwned()}, by an earlier version of the reconciler. Taking back an object with marks
 * whose owner reference is gone is what {@code kubectl delete --cascade=orphan} and a new primary
 * of the same name expect, as a ReplicaSet adopts the orphaned Pods its selector matches. A former
 * primary of the same kind, namespace and name is gone for certain (the name holds one object at a
 * time): its objects would be garbage-collected, and taking them back is what a recreated primary
 * expects.
 *
 * <p>Where the object is seen: the caller passes what it knows (the owned-kind cache, or this
 * controller's own write); when that shows neither a controller reference nor the label, or there
 * is none, the object is read from the API server (the caches strip managedFields, and a sharded
 * replica's owned cache holds only objects labelled with a slot). That read is linearizable: an
 * object created before it is seen. What remains is an object created between that read and the
 * apply, one round trip: server-side apply cannot be made create-only (a {@code metadata.uid} in
 * the body is a precondition that the object exists), so such an object would be taken over. That
 * takes a creation of the same name within milliseconds of the controller's own, and a client that
 * creates (POST) gets 409 AlreadyExists and sees it.
 *
 * <p>Stateless apart from what it is given; called by the workers.
 */
final class Adoption {

    private final String controller;
    private final String fieldManager;
    private final KubernetesClient client;

    Adoption(String controller, String fieldManager, KubernetesClient client) {
        this.controller = controller;
        this.fieldManager = fieldManager;
        this.client = client;
    }

    /**
     * What an owned apply may write into.
     *
     * @param existing the object as it is; null when absent
     * @param adopted the Adopted event's message when the apply takes the object (back) over; null otherwise
     */
    record Claim<R extends HasMetadata>(R existing, String adopted) {
    }

    /**
     * Checks that {@code body}, applied as {@code manager} for {@code primary}, may write into the
     * object under its name.
     *
     * @param known the object as this controller last knew it (cache or its own write; managedFields
     *     stripped); null: unknown, read from the API server
     * @param asked whether the reconciler asked to adopt ({@code ApplyOptions.adopt()})
     * @throws ForeignObjectException when it may not, naming the object and its controller
     */
    <R extends HasMetadata> Claim<R> claim(HasMetadata primary, R body, R known, String manager, boolean asked) {
        R existing = known != null ? known : client.resource(body).get();
        if (existing == null) {
            return new Claim<>(null, null);
        }
        String what = existing.getKind() + " " + existing.getMetadata().getName();
        boolean labelled = controller.equals(labels(existing).get(ControllerWrites.APPLIED_BY))
                || controller.equals(labels(existing).get(ControllerWrites.RETAINED_BY));
        Optional<OwnerReference> controllerRef = OwnerIndex.controllerOf(existing);
        if (controllerRef.isPresent() && Objects.equals(controllerRef.get().getUid(), primary.getMetadata().getUid())) {
            return new Claim<>(existing, null);
        }
        if (!labelled && known != null) {
            return claim(primary, body, null, manager, asked); // the managedFields decide: read them
        }
        boolean marked = labelled || appliedBy(existing, manager);
        if (controllerRef.isPresent()) {
            OwnerReference owner = controllerRef.get();
            if (marked && formerPrimary(owner, primary)) {
                return new Claim<>(existing, "Adopted " + what + ": it was controlled by a former " + owner.getKind()
                        + " " + owner.getName() + " (uid " + owner.getUid() + "), which no longer exists");
            }
            throw new ForeignObjectException(existing.getKind(), ObjectKey.of(existing), what + " exists and is "
                    + "controlled by " + owner.getKind() + " " + owner.getName() + " (uid " + owner.getUid() + "), not "
                    + "by " + primary.getKind() + " " + primary.getMetadata().getName() + ": apply will not take it "
                    + "over (one controller per object). Rename the " + primary.getKind() + ", or delete the "
                    + existing.getKind() + " or remove its owner reference if it should be this one's");
        }
        if (marked) {
            return new Claim<>(existing, "Adopted " + what + ": this controller applied it before, and its owner "
                    + "reference had been removed");
        }
        if (asked) {
            return new Claim<>(existing, "Adopted " + what + ", which no one controlled, as the reconciler asked "
                    + "(ApplyOptions.adopt())");
        }
        throw new ForeignObjectException(existing.getKind(), ObjectKey.of(existing), what + " exists and was not "
                + "applied by controller " + controller + " (no controller owner reference, no label "
                + ControllerWrites.APPLIED_BY + "=" + controller + ", never applied by field manager " + manager
                + "): apply will not take it over for " + primary.getKind() + " " + primary.getMetadata().getName()
                + ". Rename the " + primary.getKind() + ", delete or rename the " + existing.getKind()
                + ", or have the reconciler adopt it with ApplyOptions.adopt()");
    }

    /** Whether an Apply of {@code manager} (or of the controller's field manager) shaped the object. */
    private boolean appliedBy(HasMetadata object, String manager) {
        if (object.getMetadata().getManagedFields() == null) {
            return false;
        }
        for (ManagedFieldsEntry entry : object.getMetadata().getManagedFields()) {
            if ("Apply".equals(entry.getOperation()) && (manager.equals(entry.getManager())
                    || fieldManager.equals(entry.getManager()))
                    && (entry.getSubresource() == null || entry.getSubresource().isEmpty())) {
                return true;
            }
        }
        return false;
    }

    /** An owner of the primary's kind and name but another uid: an earlier primary by that name, gone. */
    private static boolean formerPrimary(OwnerReference owner, HasMetadata primary) {
        return primary.getKind().equals(owner.getKind()) && primary.getMetadata().getName().equals(owner.getName())
                && OwnerIndex.groupOf(primary.getApiVersion()).equals(OwnerIndex.groupOf(owner.getApiVersion()));
    }

    private static Map<String, String> labels(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels();
    }
}
