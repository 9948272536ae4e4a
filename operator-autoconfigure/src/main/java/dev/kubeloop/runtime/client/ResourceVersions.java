package dev.kubeloop.runtime.client;

/**
 * Which of two resourceVersions of one object is newer. The API conventions call resourceVersions
 * opaque, but every API server backed by etcd (and fabric8's mock) issues them as increasing
 * integers (etcd revisions), which is what read-your-writes caches rely on (JOSDK's and
 * controller-runtime's among them); anything else is answered "unknown", and callers fall back to
 * equality. Stateless.
 */
public final class ResourceVersions {

    /** How two versions compare. */
    public enum Order {
        OLDER, SAME, NEWER, UNKNOWN
    }

    private ResourceVersions() {
    }

    /** How {@code version} compares to {@code other}. */
    public static Order compare(String version, String other) {
        if (version == null || other == null) {
            return Order.UNKNOWN;
        }
        if (version.equals(other)) {
            return Order.SAME;
        }
        try {
            int order = Long.compare(Long.parseLong(version), Long.parseLong(other));
            return order < 0 ? Order.OLDER : Order.NEWER;
        } catch (NumberFormatException e) {
            return Order.UNKNOWN;
        }
    }
}
