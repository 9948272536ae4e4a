package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How user-declared index values are stored: like controller-runtime's field indexes, each value
 * twice, under {@code <namespace>/<value>} and under {@code __all_namespaces/<value>}, so that a
 * lookup in one namespace and a lookup across namespaces are both one map access. Cluster-scoped
 * objects are found under the second only. Stateless.
 */
public final class Indexes {

    private static final String ALL_NAMESPACES = "__all_namespaces";

    private Indexes() {
    }

    /** The stored key of {@code value} looked up in {@code namespace} (null: all namespaces). */
    public static String key(String namespace, String value) {
        return (namespace == null ? ALL_NAMESPACES : namespace) + "/" + value;
    }

    /** The fabric8 indexer function storing the values of {@code values} under both keys. */
    static <T extends HasMetadata> Function<T, List<String>> namespaced(Function<T, List<String>> values) {
        return object -> {
            List<String> given = values.apply(object);
            if (given == null || given.isEmpty()) {
                return List.of();
            }
            String namespace = object.getMetadata().getNamespace();
            List<String> keys = new ArrayList<>(namespace == null ? given.size() : given.size() * 2);
            for (String value : given) {
                if (value == null) {
                    continue;
                }
                keys.add(key(null, value));
                if (namespace != null) {
                    keys.add(key(namespace, value));
                }
            }
            return keys;
        };
    }
}
