package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.leader.LeaderElection;
import dev.kubeloop.leader.LeaderElectionDefaults;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.leader.LeadershipLostHandler;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.LeaseTimings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;

/**
 * Builds the {@link LeaderElection} from {@code kubeloop.leader-election.*}, filling in the
 * defaults (Lease name from {@code spring.application.name}, the pod's namespace, the pod name plus
 * a random suffix) and failing startup with the property at fault when a value is invalid.
 * Stateless.
 */
final class LeaderElectionFactory {

    static final String PREFIX = "kubeloop.leader-election.";

    private LeaderElectionFactory() {
    }

    static LeaderElection create(KubernetesClient client, LeaderElectionProperties properties,
            String applicationName, LeadershipLostHandler lostHandler) {
        try {
            LeaseTimings.check(properties.getLeaseDuration(), properties.getRenewDeadline(),
                    properties.getRetryPeriod(), PREFIX);
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException("Invalid leader election timings: " + e.getMessage() + ".",
                    "Keep " + PREFIX + LeaseTimings.rule() + ", e.g. the defaults 15s, "
                            + "10s and 2s (client-go's). Shorter timings fail over faster but put more load on "
                            + "the API server and tolerate less latency.", e);
        }
        String leaseName = leaseName(properties.getLeaseName(), applicationName);
        String namespace = blank(properties.getLeaseNamespace()) ? LeaderElectionDefaults.namespace(client)
                : properties.getLeaseNamespace().trim();
        try {
            LeaderElectionSettings.checkNamespace(namespace, PREFIX + "lease-namespace");
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException("Property " + e.getMessage() + ".",
                    "Set " + PREFIX + "lease-namespace to the namespace the operator runs in.", e);
        }
        String identity = blank(properties.getIdentity()) ? LeaderElectionDefaults.identity()
                : properties.getIdentity().trim();
        LeaderElectionSettings settings = LeaderElectionSettings.builder(namespace, leaseName, identity)
                .leaseDuration(properties.getLeaseDuration())
                .renewDeadline(properties.getRenewDeadline())
                .retryPeriod(properties.getRetryPeriod())
                .releaseOnShutdown(properties.isReleaseOnShutdown())
                .onLost(properties.getOnLost())
                .build();
        return new LeaderElection(client, settings, lostHandler);
    }

    private static String leaseName(String configured, String applicationName) {
        if (!blank(configured)) {
            try {
                LeaderElectionSettings.checkLeaseName(configured.trim(), PREFIX + "lease-name");
            } catch (IllegalArgumentException e) {
                throw new KubeloopConfigurationException("Property " + e.getMessage() + ".",
                        "Set " + PREFIX + "lease-name to a name such as my-operator-leader.", e);
            }
            return configured.trim();
        }
        if (blank(applicationName)) {
            throw new KubeloopConfigurationException("Leader election is on, but the Lease has no name: neither "
                    + PREFIX + "lease-name nor spring.application.name is set.",
                    "Set spring.application.name (the Lease is then named <name>-leader) or " + PREFIX + "lease-name. "
                            + "All replicas of one operator must use the same Lease, different operators different "
                            + "ones; or set " + PREFIX + "enabled=false to run without leader election.");
        }
        // a Lease name is a DNS subdomain: "My Operator" becomes my-operator-leader
        String derived = applicationName.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-")
                .replaceAll("^[^a-z0-9]+", "") + "-leader";
        try {
            LeaderElectionSettings.checkLeaseName(derived, "The Lease name derived from spring.application.name");
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException(e.getMessage() + ".",
                    "Set " + PREFIX + "lease-name to a valid name such as my-operator-leader.", e);
        }
        return derived;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
