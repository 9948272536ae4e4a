package dev.kubeloop.testing;

/**
 * What an API request path names, as the API server's own messages name it: group, namespace,
 * resource, object, subresource, and the authorizer's verb for the HTTP method. Immutable.
 *
 * @param method the HTTP method
 * @param group the API group, {@code ""} for the core group
 * @param namespace the namespace; null for a cluster-scoped request
 * @param resource the resource (plural), e.g. {@code widgets}
 * @param name the object's name; null for a collection
 * @param subresource e.g. {@code status}; null for the object itself
 * @param watch whether the query asks for a watch
 */
record ApiRequest(String method, String group, String namespace, String resource, String name, String subresource,
        boolean watch) {

    /** Parses {@code /api/v1/...} and {@code /apis/<group>/<version>/...} paths, with or without a query. */
    static ApiRequest parse(String method, String pathAndQuery) {
        int question = pathAndQuery.indexOf('?');
        String path = question < 0 ? pathAndQuery : pathAndQuery.substring(0, question);
        boolean watch = question >= 0 && pathAndQuery.substring(question).contains("watch=true");
        String[] segments = path.replaceAll("^/+", "").split("/");
        int next;
        String group;
        if (segments[0].equals("api")) {
            group = "";
            next = 2;
        } else if (segments[0].equals("apis") && segments.length > 1) {
            group = segments[1];
            next = 3;
        } else {
            return new ApiRequest(method, "", null, path, null, null, watch);
        }
        String namespace = null;
        // /api/v1/namespaces/<ns> is the Namespace object itself, not a namespaced request
        if (segments.length > next + 2 && segments[next].equals("namespaces")) {
            namespace = segments[next + 1];
            next += 2;
        }
        return new ApiRequest(method, group, namespace, at(segments, next), at(segments, next + 1),
                at(segments, next + 2), watch);
    }

    private static String at(String[] segments, int index) {
        return index < segments.length ? segments[index] : null;
    }

    /** The verb the authorizer checks for this request. */
    String verb() {
        return switch (method) {
            case "GET" -> name != null ? "get" : watch ? "watch" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name != null ? "delete" : "deletecollection";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** {@code widgets.kubeloop.dev}, or {@code configmaps} in the core group. */
    String qualifiedResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    /** {@code widgets/status}, as RBAC rules and the authorizer name a subresource. */
    String resourceAndSubresource() {
        return subresource == null ? resource : resource + "/" + subresource;
    }
}
