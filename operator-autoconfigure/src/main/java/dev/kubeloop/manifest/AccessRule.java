package dev.kubeloop.manifest;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One RBAC rule: {@code verbs} on one {@code resource} (or subresource, {@code websites/status}) of
 * one API group ({@code ""} for the core group). Verbs are kept in {@link #VERBS} order, so a rule
 * renders the same way whatever order it was granted in. Immutable.
 */
public record AccessRule(String apiGroup, String resource, List<String> verbs) implements Comparable<AccessRule> {

    /** The verbs Kubeloop grants, in the order the Kubernetes documentation lists them. */
    public static final List<String> VERBS = List.of("get", "list", "watch", "create", "update", "patch", "delete");

    private static final Comparator<AccessRule> ORDER = Comparator.comparing(AccessRule::apiGroup)
            .thenComparing(AccessRule::resource);

    public AccessRule {
        Objects.requireNonNull(apiGroup, "apiGroup");
        Objects.requireNonNull(resource, "resource");
        for (String verb : verbs) {
            if (!VERBS.contains(verb)) {
                throw new IllegalArgumentException("unknown verb '" + verb + "' for " + resource + "; known: " + VERBS);
            }
        }
        verbs = VERBS.stream().filter(verbs::contains).toList();
    }

    /** Sorted by API group, then resource: the order of the generated files. */
    @Override
    public int compareTo(AccessRule other) {
        return ORDER.compare(this, other);
    }

    /** The rule as one YAML flow mapping, the form of the generated files and of their check. */
    public String yaml() {
        return "{apiGroups: [\"" + apiGroup + "\"], resources: [\"" + resource + "\"], verbs: ["
                + String.join(", ", verbs.stream().map(verb -> "\"" + verb + "\"").toList()) + "]}";
    }
}
