package dev.kubeloop.observation;

/**
 * The resource an API server path names, as a low-cardinality attribute: {@code configmaps},
 * {@code deployments.apps}, {@code websites.example.com/status}; never a namespace or a name.
 */
final class ApiPaths {

    private ApiPaths() {
    }

    /** The resource of {@code path}, or {@code other} for paths that name none (discovery, version). */
    static String resource(String path) {
        String[] parts = path == null ? new String[0] : path.split("/");
        // "", "api", "v1", ... or "", "apis", group, version, ...
        int at;
        String group;
        if (parts.length > 3 && "api".equals(parts[1])) {
            at = 3;
            group = "";
        } else if (parts.length > 4 && "apis".equals(parts[1])) {
            at = 4;
            group = "." + parts[2];
        } else {
            return "other";
        }
        if ("namespaces".equals(parts[at]) && parts.length > at + 2) {
            at += 2; // a namespaced resource; "namespaces" alone (or one namespace) is the resource itself
        }
        String resource = parts[at] + group;
        // resource, name, subresource
        return parts.length > at + 2 ? resource + "/" + parts[at + 2] : resource;
    }
}
