package dev.kubeloop.manifest;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Grants collected per API group and resource, merged: granting {@code get} and then
 * {@code patch} on ConfigMaps gives one rule with both. Not thread-safe: one derivation fills one
 * instance, then reads {@link #rules()}.
 */
final class AccessRules {

    /** "group\u0000resource" → verbs; a TreeMap, so the rules come out sorted. */
    private final Map<String, Set<String>> grants = new TreeMap<>();

    AccessRules grant(Class<? extends HasMetadata> type, String... verbs) {
        return grant(HasMetadata.getGroup(type), HasMetadata.getPlural(type), verbs);
    }

    AccessRules grant(String group, String resource, String... verbs) {
        grants.computeIfAbsent(group + '\u0000' + resource, key -> new LinkedHashSet<>()).addAll(List.of(verbs));
        return this;
    }

    AccessRules grantAll(Collection<AccessRule> rules) {
        rules.forEach(rule -> grant(rule.apiGroup(), rule.resource(), rule.verbs().toArray(String[]::new)));
        return this;
    }

    /** The merged rules, sorted by group and resource. */
    List<AccessRule> rules() {
        List<AccessRule> rules = new ArrayList<>();
        grants.forEach((key, verbs) -> {
            int split = key.indexOf('\u0000');
            rules.add(new AccessRule(key.substring(0, split), key.substring(split + 1), List.copyOf(verbs)));
        });
        return rules;
    }

    /** What {@code more} grants beyond {@code base}: per group and resource, the verbs base lacks. */
    static List<AccessRule> beyond(List<AccessRule> more, List<AccessRule> base) {
        AccessRules had = new AccessRules().grantAll(base);
        AccessRules extra = new AccessRules();
        for (AccessRule rule : more) {
            Set<String> known = had.grants.getOrDefault(rule.apiGroup() + '\u0000' + rule.resource(), Set.of());
            String[] missing = rule.verbs().stream().filter(verb -> !known.contains(verb)).toArray(String[]::new);
            if (missing.length > 0) {
                extra.grant(rule.apiGroup(), rule.resource(), missing);
            }
        }
        return extra.rules();
    }
}
