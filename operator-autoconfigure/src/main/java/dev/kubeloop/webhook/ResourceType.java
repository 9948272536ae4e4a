package dev.kubeloop.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * A Java resource class with the group, version and kind its annotations give it (fabric8's
 * {@code @Group}, {@code @Version}, {@code @Kind}, or the built-in types' own). Immutable.
 *
 * @param group the API group; empty for the core group
 */
public record ResourceType(Class<? extends HasMetadata> javaType, String group, String version, String kind) {

    public ResourceType {
        Objects.requireNonNull(javaType, "javaType");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
    }

    /** The type of {@code javaType}, read from its annotations. */
    public static ResourceType of(Class<? extends HasMetadata> javaType) {
        String group = HasMetadata.getGroup(javaType);
        return new ResourceType(javaType, group == null ? "" : group, HasMetadata.getVersion(javaType),
                HasMetadata.getKind(javaType));
    }

    /** {@code sample.kubeloop.dev/v1}, or {@code v1} for the core group. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** Same group and kind (any version). */
    boolean sameKind(String otherGroup, String otherKind) {
        return group.equals(otherGroup == null ? "" : otherGroup) && kind.equals(otherKind);
    }

    boolean matches(GroupVersionKind gvk) {
        return gvk != null && sameKind(gvk.getGroup(), gvk.getKind()) && version.equals(gvk.getVersion());
    }

    /** {@code sample.kubeloop.dev/v1 Website}, as messages name a type. */
    @Override
    public String toString() {
        return apiVersion() + " " + kind;
    }

    /** A GroupVersionKind as messages name it. */
    static String describe(GroupVersionKind gvk) {
        if (gvk == null) {
            return "no kind";
        }
        String group = gvk.getGroup() == null ? "" : gvk.getGroup();
        return (group.isEmpty() ? "" : group + "/") + gvk.getVersion() + " " + gvk.getKind();
    }
}
