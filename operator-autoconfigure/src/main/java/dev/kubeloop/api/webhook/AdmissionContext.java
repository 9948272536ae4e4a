package dev.kubeloop.api.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the API server says about an admission request besides the object: the operation, whether
 * it is a dry run, who asks, and the version the user asked for before the API server converted
 * the object to the webhook's version. Immutable view of fabric8's {@link AdmissionRequest}.
 *
 * <p><b>Dry run</b>: the API server calls webhooks for {@code --dry-run=server} requests too
 * (Kubeloop's webhook configurations declare {@code sideEffects: None}), and nothing will be
 * stored. A validator or defaulter that does anything besides answering (writes elsewhere,
 * counts, calls out) must skip it when {@link #dryRun()} is true.
 */
public final class AdmissionContext {

    private final AdmissionRequest request;
    private final Operation operation;

    private AdmissionContext(AdmissionRequest request) {
        this.request = Objects.requireNonNull(request, "request");
        this.operation = Operation.valueOf(Objects.requireNonNull(request.getOperation(), "operation")
                .toUpperCase(Locale.ROOT));
    }

    /**
     * The context of {@code request}.
     *
     * @throws IllegalArgumentException if the request names no operation Kubernetes knows
     */
    public static AdmissionContext of(AdmissionRequest request) {
        return new AdmissionContext(request);
    }

    public Operation operation() {
        return operation;
    }

    /** True for {@code --dry-run=server}: nothing will be persisted, so nothing may happen elsewhere. */
    public boolean dryRun() {
        return Boolean.TRUE.equals(request.getDryRun());
    }

    /** The user (or ServiceAccount, {@code system:serviceaccount:<ns>:<name>}) making the request. */
    public @Nullable String userName() {
        UserInfo user = request.getUserInfo();
        return user == null ? null : user.getUsername();
    }

    public List<String> userGroups() {
        UserInfo user = request.getUserInfo();
        return user == null || user.getGroups() == null ? List.of() : List.copyOf(user.getGroups());
    }

    /** The object's namespace; null for cluster-scoped objects. */
    public @Nullable String namespace() {
        return request.getNamespace();
    }

    /** The object's name; empty on a create with {@code generateName}. */
    public String name() {
        return request.getName();
    }

    /** The version the user asked for ({@code v1alpha1}), where {@code kind} is what the webhook got. */
    public GroupVersionKind requestKind() {
        return request.getRequestKind() != null ? request.getRequestKind() : request.getKind();
    }

    /** The request as the API server sent it, for anything else (its objects as untyped maps). */
    public AdmissionRequest request() {
        return request;
    }

    @Override
    public String toString() {
        return operation + " " + (namespace() == null ? "" : namespace() + "/") + name() + (dryRun() ? " (dry run)" : "");
    }
}
