package dev.kubeloop.sharding;

import dev.kubeloop.runtime.LeaseTimings;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.cache.ShardLayout;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a replica takes part in a ring: the ring's name and namespace, its identity, how many buckets
 * the objects are split into, and the timings of its Lease (client-go's leader election defaults:
 * lease 15 s, renew deadline 10 s, retry period 2 s, with the same meaning). Immutable; validated
 * on construction, naming the setting at fault.
 *
 * <p>Every member renews its own Lease every {@code retryPeriod}; one that has not renewed for
 * {@code renewDeadline} stops acting on everything; the others take its buckets once
 * {@code leaseDuration} has passed since they last saw its Lease change. The timings obey
 * {@link LeaseTimings}, the rule leader election's obey too. {@code drainTimeout} bounds
 * how long a bucket being given away waits for its reconciles in flight before they are
 * interrupted.
 *
 * @param ring the ring's name: a DNS label, the same for every replica of one operator
 * @param namespace the namespace of the members' Leases
 * @param identity this replica's identity: unique per process, lower case (it names its Lease)
 * @param buckets how many buckets the objects are split into: a power of two up to 1024
 * @param leaseDuration how long after a member's last renewal the others take its buckets; whole seconds
 * @param renewDeadline how long a member acts without a successful renewal
 * @param retryPeriod how often a member renews its Lease
 * @param drainTimeout how long a bucket given away waits for its reconciles before interrupting them
 */
public record ShardingSettings(String ring, String namespace, String identity, int buckets, Duration leaseDuration,
        Duration renewDeadline, Duration retryPeriod, Duration drainTimeout) {

    // first: the settings below use them while the class initializes
    private static final Pattern IDENTITY = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
    /** A Lease name is a DNS subdomain of at most this many characters. */
    private static final int MAX_LEASE_NAME = 253;

    /** Whether replicas shard the objects among them. */
    public static final Setting<Boolean> ENABLED = Setting.any("sharding.enabled", false, "true or false");
    /** The ring's name. */
    public static final Setting<String> RING_NAME = Setting.derived("sharding.ring-name",
            "<spring.application.name>", "a DNS label such as my-operator", Settings::isDnsLabel);
    /** The namespace of the ring's Leases. */
    public static final Setting<String> NAMESPACE = Setting.derived("sharding.namespace", "the pod's namespace",
            "a namespace name", Settings::isDnsLabel);
    /** This replica's identity. */
    public static final Setting<String> IDENTITY_SETTING = Setting.derived("sharding.identity",
            "pod name + random suffix", "lower-case letters, digits, '-' and '.', unique per process",
            identity -> IDENTITY.matcher(identity).matches());
    /** Buckets of the ring. */
    public static final Setting<Integer> BUCKETS = Setting.of("sharding.buckets", 32,
            "a power of two from 1 to " + ShardLayout.SLOTS, ShardLayout::validBucketCount);
    /** client-go's lease duration. */
    public static final Setting<Duration> LEASE_DURATION = Setting.of("sharding.lease-duration",
            Duration.ofSeconds(15), "a whole number of seconds, longer than renew-deadline",
            duration -> Settings.positive(duration) && duration.getNano() == 0);
    /** client-go's renew deadline. */
    public static final Setting<Duration> RENEW_DEADLINE = Setting.of("sharding.renew-deadline",
            Duration.ofSeconds(10), "a positive duration, shorter than lease-duration and at least 2 × retry-period",
            Settings::positive);
    /** client-go's retry period. */
    public static final Setting<Duration> RETRY_PERIOD = Setting.of("sharding.retry-period", Duration.ofSeconds(2),
            "a positive duration", Settings::positive);
    /** How long a bucket given away waits for its reconciles in flight. */
    public static final Setting<Duration> DRAIN_TIMEOUT = Setting.of("sharding.drain-timeout", Duration.ofSeconds(30),
            "a duration of 0 or more", duration -> !duration.isNegative());

    public ShardingSettings {
        check(RING_NAME, ring);
        check(NAMESPACE, namespace);
        check(IDENTITY_SETTING, identity);
        check(BUCKETS, buckets);
        check(LEASE_DURATION, leaseDuration);
        check(RENEW_DEADLINE, renewDeadline);
        check(RETRY_PERIOD, retryPeriod);
        check(DRAIN_TIMEOUT, drainTimeout);
        LeaseTimings.check(leaseDuration, renewDeadline, retryPeriod, Setting.PREFIX + "sharding.");
        if (leaseName(ring, identity).length() > MAX_LEASE_NAME) {
            throw new IllegalArgumentException(IDENTITY_SETTING.property() + " '" + identity + "' is too long: with "
                    + "the ring's name it must fit a Lease name of " + MAX_LEASE_NAME + " characters");
        }
    }

    /** Every sharding setting, for the documentation checks. */
    public static List<Setting<?>> all() {
        return List.of(ENABLED, RING_NAME, NAMESPACE, IDENTITY_SETTING, BUCKETS, LEASE_DURATION, RENEW_DEADLINE,
                RETRY_PERIOD, DRAIN_TIMEOUT);
    }

    /** This replica's Lease: {@code <ring>-<identity>}. */
    public String leaseName() {
        return leaseName(ring, identity);
    }

    /** The layout of the caches this ring splits. */
    public ShardLayout layout() {
        return new ShardLayout(ring, buckets);
    }

    /** "namespace/ring", for logs. */
    String describe() {
        return namespace + "/" + ring;
    }

    private static String leaseName(String ring, String identity) {
        return ring + "-" + identity;
    }

    private static <T> void check(Setting<T> setting, T value) {
        Objects.requireNonNull(value, setting.property());
        if (!setting.accepts(value)) {
            throw new IllegalArgumentException(setting.property() + " '" + Setting.format(value) + "' is invalid: it "
                    + "must be " + setting.allowed());
        }
    }
}
