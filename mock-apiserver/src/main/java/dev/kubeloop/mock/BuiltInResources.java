package dev.kubeloop.mock;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in types the embedded API server lists in discovery: those an operator and its Helm
 * chart usually touch, with kubectl's short names. Taken from fabric8's model classes (group,
 * version, plural, kind, scope), so they name what the mock stores under those paths. A type not
 * listed here is still stored and served by the mock; kubectl just cannot name it.
 */
final class BuiltInResources {

    private record Type(Class<? extends HasMetadata> type, List<String> shortNames) {
    }

    private static final List<Type> TYPES = List.of(
            new Type(ConfigMap.class, List.of("cm")),
            new Type(Endpoints.class, List.of("ep")),
            new Type(Event.class, List.of("ev")),
            new Type(Namespace.class, List.of("ns")),
            new Type(Node.class, List.of("no")),
            new Type(PersistentVolumeClaim.class, List.of("pvc")),
            new Type(PersistentVolume.class, List.of("pv")),
            new Type(Pod.class, List.of("po")),
            new Type(Secret.class, List.of()),
            new Type(ServiceAccount.class, List.of("sa")),
            new Type(Service.class, List.of("svc")),
            new Type(DaemonSet.class, List.of("ds")),
            new Type(Deployment.class, List.of("deploy")),
            new Type(ReplicaSet.class, List.of("rs")),
            new Type(StatefulSet.class, List.of("sts")),
            new Type(CronJob.class, List.of("cj")),
            new Type(Job.class, List.of()),
            new Type(Lease.class, List.of()),
            new Type(io.fabric8.kubernetes.api.model.events.v1.Event.class, List.of("ev")),
            new Type(ClusterRoleBinding.class, List.of()),
            new Type(ClusterRole.class, List.of()),
            new Type(RoleBinding.class, List.of()),
            new Type(Role.class, List.of()),
            new Type(CustomResourceDefinition.class, List.of("crd", "crds")),
            new Type(MutatingWebhookConfiguration.class, List.of()),
            new Type(ValidatingWebhookConfiguration.class, List.of()),
            new Type(PodDisruptionBudget.class, List.of("pdb")),
            new Type(Ingress.class, List.of("ing")),
            new Type(NetworkPolicy.class, List.of("netpol")));

    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");

    private BuiltInResources() {
    }

    /** The versions of every built-in group ({@code ""} is the core group), in discovery order. */
    static Map<String, List<String>> groupVersions() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (Type type : TYPES) {
            String group = HasMetadata.getGroup(type.type());
            if (!group.isEmpty()) {
                List<String> versions = groups.computeIfAbsent(group, g -> new ArrayList<>());
                String version = HasMetadata.getVersion(type.type());
                if (!versions.contains(version)) {
                    versions.add(version);
                }
            }
        }
        return groups;
    }

    /** The built-in resources of one group and version; empty for a group that has none. */
    static List<APIResource> of(String group, String version) {
        return TYPES.stream()
                .filter(t -> HasMetadata.getGroup(t.type()).equals(group)
                        && HasMetadata.getVersion(t.type()).equals(version))
                .map(t -> new APIResourceBuilder().withName(HasMetadata.getPlural(t.type()))
                        .withSingularName(HasMetadata.getSingular(t.type())).withKind(HasMetadata.getKind(t.type()))
                        .withNamespaced(Namespaced.class.isAssignableFrom(t.type())).withVerbs(VERBS)
                        .withShortNames(t.shortNames()).build())
                .toList();
    }
}
