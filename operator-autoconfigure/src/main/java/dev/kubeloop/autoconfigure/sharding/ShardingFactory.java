package dev.kubeloop.autoconfigure.sharding;

import dev.kubeloop.leader.LeaderElectionDefaults;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.LeaseTimings;
import dev.kubeloop.sharding.ShardingGate;
import dev.kubeloop.sharding.ShardingSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;

/**
 * Builds the {@link ShardingGate} from {@code kubeloop.sharding.*}, filling in the defaults (ring
 * name from {@code spring.application.name}, the pod's namespace, the pod name plus a random
 * suffix) and failing startup with the property at fault when a value is invalid, or when leader
 * election is asked for too. Stateless.
 */
final class ShardingFactory {

    static final String PREFIX = "kubeloop.sharding.";

    private ShardingFactory() {
    }

    static ShardingGate create(KubernetesClient client, ShardingProperties properties, String applicationName,
            Boolean leaderElection) {
        if (Boolean.TRUE.equals(leaderElection)) {
            throw new KubeloopConfigurationException("Both " + ShardingSettings.ENABLED.property() + " and "
                    + LeaderElectionSettings.ENABLED.property() + " are true: a sharded operator has no leader, every "
                    + "replica reconciles its own share.",
                    "Remove " + LeaderElectionSettings.ENABLED.property() + " (sharding replaces leader election), or set "
                            + ShardingSettings.ENABLED.property() + "=false to keep one active replica.");
        }
        String ring = blank(properties.getRingName()) ? ringFrom(applicationName) : properties.getRingName().trim();
        String namespace = blank(properties.getNamespace()) ? LeaderElectionDefaults.namespace(client)
                : properties.getNamespace().trim();
        String identity = blank(properties.getIdentity()) ? defaultIdentity() : properties.getIdentity().trim();
        try {
            return new ShardingGate(client, new ShardingSettings(ring, namespace, identity, properties.getBuckets(),
                    properties.getLeaseDuration(), properties.getRenewDeadline(), properties.getRetryPeriod(),
                    properties.getDrainTimeout()));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new KubeloopConfigurationException("Invalid sharding configuration: " + e.getMessage() + ".",
                    "Fix the property named above. The timings keep " + LeaseTimings.rule()
                            + " (defaults 15s, 10s, 2s); buckets is a power of two up to 1024, the same "
                            + "on every replica.", e);
        }
    }

    /** spring.application.name as a DNS label: "My Operator" becomes my-operator. */
    private static String ringFrom(String applicationName) {
        if (blank(applicationName)) {
            throw new KubeloopConfigurationException("Sharding is on, but the ring has no name: neither "
                    + PREFIX + "ring-name nor spring.application.name is set.",
                    "Set spring.application.name or " + PREFIX + "ring-name; all replicas of one operator must use "
                            + "the same ring, different operators different ones.");
        }
        String derived = applicationName.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-")
                .replaceAll("^-+", "").replaceAll("-+$", "");
        return derived.length() > 63 ? derived.substring(0, 63).replaceAll("-+$", "") : derived;
    }

    /** The leader election identity (pod name + random suffix) as a DNS-friendly name: it names a Lease. */
    private static String defaultIdentity() {
        return LeaderElectionDefaults.identity().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]+", "-")
                .replaceAll("^[^a-z0-9]+", "");
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
