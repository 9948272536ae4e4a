package dev.kubeloop.autoconfigure.sharding;

import dev.kubeloop.autoconfigure.LeaseProperties;
import dev.kubeloop.sharding.ShardingSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code kubeloop.sharding.*}: every replica holds its own Lease in a ring ({@link LeaseProperties}:
 * identity and timings), the primaries are split into buckets by a hash of their uid, and each
 * replica caches and reconciles the buckets the ring gives it. Replaces leader election (the two
 * are mutually exclusive); see docs/sharding.md. Bound when sharding is on. A mutable JavaBean bound
 * once at startup; read it, do not change it.
 */
@ConfigurationProperties("kubeloop.sharding")
public class ShardingProperties extends LeaseProperties {

    /** Whether replicas shard the primaries among them (active-active) instead of electing a leader. */
    private boolean enabled = ShardingSettings.ENABLED.defaultValue();

    /**
     * Name of the ring: a DNS label, the same for all replicas of one operator. It names the
     * members' Leases and the slot label (shard.kubeloop.dev/<ring>). Defaults to
     * spring.application.name made a DNS label.
     */
    private String ringName;

    /** Namespace of the members' Leases. Defaults to the pod's namespace, as for leader election. */
    private String namespace;

    /**
     * How many buckets the primaries are split into: a power of two up to 1024, at least the
     * number of replicas (more buckets move objects in smaller steps). Every replica must agree.
     */
    private int buckets = ShardingSettings.BUCKETS.defaultValue();

    /**
     * How long a bucket given away waits for its reconciles in flight before they are
     * interrupted; the next holder starts once they ended.
     */
    private Duration drainTimeout = ShardingSettings.DRAIN_TIMEOUT.defaultValue();

    public ShardingProperties() {
        super(ShardingSettings.LEASE_DURATION.defaultValue(), ShardingSettings.RENEW_DEADLINE.defaultValue(),
                ShardingSettings.RETRY_PERIOD.defaultValue());
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getRingName() {
        return ringName;
    }

    public void setRingName(String ringName) {
        this.ringName = ringName;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public int getBuckets() {
        return buckets;
    }

    public void setBuckets(int buckets) {
        this.buckets = buckets;
    }

    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(Duration drainTimeout) {
        this.drainTimeout = drainTimeout;
    }
}
