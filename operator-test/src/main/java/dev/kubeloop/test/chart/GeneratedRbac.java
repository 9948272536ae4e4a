package dev.kubeloop.test.chart;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The RBAC rules {@code kubeloop:manifests} generated from the code into a chart's
 * {@code files/kubeloop/rbac.yaml}, as fabric8 {@link PolicyRule}s: {@link #workload} with the
 * chart options switched on, {@link #releaseNamespace} of an option; {@link #grants} compares rules
 * however a template splits them. A chart test asserts that what the chart renders is exactly
 * this. Immutable.
 */
public final class GeneratedRbac {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private final Map<String, Object> file;

    private GeneratedRbac(Map<String, Object> file) {
        this.file = file;
    }

    /** Reads {@code rbacYaml} (a chart's {@code files/kubeloop/rbac.yaml}). */
    public static GeneratedRbac read(Path rbacYaml) {
        try {
            return new GeneratedRbac(map(YAML.unmarshal(Files.readString(rbacYaml), Map.class)));
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException(rbacYaml + " does not exist: build the project (./mvnw process-classes), "
                    + "whose kubeloop:manifests goal writes it from the code", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rules where the reconcilers work: the base and what each of {@code options} adds. */
    public List<PolicyRule> workload(String... options) {
        List<Object> rules = new ArrayList<>(list(file.get("workload")));
        for (String option : options) {
            rules.addAll(list(option(option).get("workload")));
        }
        return List.of(YAML.convertValue(rules, PolicyRule[].class));
    }

    /** The rules {@code option} ({@code leaderElection}, {@code sharding}) needs in the release namespace. */
    public List<PolicyRule> releaseNamespace(String option) {
        return List.of(YAML.convertValue(list(option(option).get("releaseNamespace")), PolicyRule[].class));
    }

    /** {@code group/resource: [verbs]} per group and resource of each rule, sorted: rules compared as grants. */
    public static Set<String> grants(List<PolicyRule> rules) {
        Set<String> grants = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    grants.add(group + "/" + resource + ": " + rule.getVerbs());
                }
            }
        }
        return grants;
    }

    private Map<String, Object> option(String name) {
        Object option = map(file.get("options")).get(name);
        if (option == null) {
            throw new IllegalArgumentException("rbac.yaml has no option '" + name + "' (options: "
                    + map(file.get("options")).keySet() + ")");
        }
        return map(option);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return value == null ? List.of() : (List<Object>) value;
    }
}
