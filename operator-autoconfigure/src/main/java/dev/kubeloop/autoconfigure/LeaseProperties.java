package dev.kubeloop.autoconfigure;

import java.time.Duration;

/**
 * What every holder of a Lease is configured with: its identity and client-go's three timings.
 * Leader election ({@code kubeloop.leader-election.*}) and sharding ({@code kubeloop.sharding.*})
 * extend it, each with its own defaults from its catalog, so the two keep the same property names,
 * descriptions and rule ({@code LeaseTimings}) without writing them twice. A mutable JavaBean bound
 * once at startup, like every properties class.
 */
public abstract class LeaseProperties {

    /**
     * This replica's identity in its Lease; unique per process. Defaults to the pod's host name plus
     * a random suffix (lower case for sharding, whose identities name Leases).
     */
    private String identity;

    /**
     * How long after the holder's last renewal another replica may take its Lease over (for
     * sharding: its buckets); whole seconds, longer than renew-deadline.
     */
    private Duration leaseDuration;

    /**
     * How long the holder keeps acting without a successful renewal of its Lease; at least 2 times
     * retry-period.
     */
    private Duration renewDeadline;

    /** How often the holder renews its Lease and a standby tries to acquire one. */
    private Duration retryPeriod;

    protected LeaseProperties(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        this.leaseDuration = leaseDuration;
        this.renewDeadline = renewDeadline;
        this.retryPeriod = retryPeriod;
    }

    public String getIdentity() {
        return identity;
    }

    public void setIdentity(String identity) {
        this.identity = identity;
    }

    public Duration getLeaseDuration() {
        return leaseDuration;
    }

    public void setLeaseDuration(Duration leaseDuration) {
        this.leaseDuration = leaseDuration;
    }

    public Duration getRenewDeadline() {
        return renewDeadline;
    }

    public void setRenewDeadline(Duration renewDeadline) {
        this.renewDeadline = renewDeadline;
    }

    public Duration getRetryPeriod() {
        return retryPeriod;
    }

    public void setRetryPeriod(Duration retryPeriod) {
        this.retryPeriod = retryPeriod;
    }
}
