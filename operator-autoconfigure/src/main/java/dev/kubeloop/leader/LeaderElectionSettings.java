package dev.kubeloop.leader;

import dev.kubeloop.runtime.LeaseTimings;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a replica takes part in leader election: which Lease, under which identity, with which
 * timings (client-go's defaults: lease 15 s, renew deadline 10 s, retry period 2 s), and what it
 * does at shutdown and when it loses the Lease. Immutable; validated on construction.
 *
 * <p>The timings follow client-go's meaning. The holder renews every {@code retryPeriod}; if it
 * has not renewed for {@code renewDeadline}, it stops acting. Another replica may take the Lease
 * {@code leaseDuration} after the holder's last renewal. So {@code leaseDuration > renewDeadline}
 * leaves a margin in which the old holder has stopped and no one else has started, and
 * {@code renewDeadline} must allow more than one renewal attempt: the rule is
 * {@link LeaseTimings}'s, shared with sharding.
 *
 * @param leaseNamespace the Lease's namespace
 * @param leaseName the Lease's name: the same for every replica of one operator, different for
 *     different operators
 * @param identity this replica's holder identity: unique per replica (and per process: a restarted
 *     replica must not reuse its predecessor's identity)
 * @param leaseDuration how long after the holder's last renewal others may take the Lease; whole
 *     seconds (the Lease stores {@code leaseDurationSeconds})
 * @param renewDeadline how long the holder keeps acting without a successful renewal
 * @param retryPeriod how often the holder renews and a standby tries to acquire
 * @param releaseOnShutdown whether a graceful stop releases the Lease (after the workers drained),
 *     so that a standby takes over at once instead of after {@code leaseDuration}
 * @param onLost what to do after losing the Lease
 */
public record LeaderElectionSettings(String leaseNamespace, String leaseName, String identity, Duration leaseDuration,
        Duration renewDeadline, Duration retryPeriod, boolean releaseOnShutdown, OnLost onLost) {

    // first: the settings below use them while the class initializes
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** Whether replicas elect a leader; unset: on when Spring Boot detects Kubernetes. */
    public static final Setting<Boolean> ENABLED = Setting.derived("leader-election.enabled",
            "on when Spring Boot detects Kubernetes, off otherwise", "true or false", enabled -> true);
    /** The Lease's name. */
    public static final Setting<String> LEASE_NAME = Setting.derived("leader-election.lease-name",
            "<spring.application.name>-leader", "a Lease name (a DNS subdomain) such as my-operator-leader",
            LeaderElectionSettings::isLeaseName);
    /** The Lease's namespace. */
    public static final Setting<String> LEASE_NAMESPACE = Setting.derived("leader-election.lease-namespace",
            "the pod's namespace", "a namespace name", LeaderElectionSettings::isNamespace);
    /** This replica's holder identity. */
    public static final Setting<String> IDENTITY = Setting.derived("leader-election.identity",
            "pod name + _ + random suffix", "any string, unique per process", identity -> true);
    /** client-go's lease duration. */
    public static final Setting<Duration> LEASE_DURATION = Setting.of("leader-election.lease-duration",
            Duration.ofSeconds(15), "a whole number of seconds, longer than renew-deadline",
            duration -> Settings.positive(duration) && duration.getNano() == 0);
    /** client-go's renew deadline. */
    public static final Setting<Duration> RENEW_DEADLINE = Setting.of("leader-election.renew-deadline",
            Duration.ofSeconds(10), "a positive duration, shorter than lease-duration and at least 2 × retry-period",
            Settings::positive);
    /** client-go's retry period. */
    public static final Setting<Duration> RETRY_PERIOD = Setting.of("leader-election.retry-period",
            Duration.ofSeconds(2), "a positive duration", Settings::positive);
    /** Whether a graceful stop releases the Lease. */
    public static final Setting<Boolean> RELEASE_ON_SHUTDOWN = Setting.any("leader-election.release-on-shutdown",
            true, "true or false");
    /** What a leader does when it loses the Lease. */
    public static final Setting<OnLost> ON_LOST = Setting.any("leader-election.on-lost", OnLost.EXIT,
            "one of exit, standby");

    /** Defaults of {@link Builder}; the catalog above is their one definition. */
    public static final Duration DEFAULT_LEASE_DURATION = LEASE_DURATION.defaultValue();
    public static final Duration DEFAULT_RENEW_DEADLINE = RENEW_DEADLINE.defaultValue();
    public static final Duration DEFAULT_RETRY_PERIOD = RETRY_PERIOD.defaultValue();


    public LeaderElectionSettings {
        Objects.requireNonNull(onLost, "onLost");
        checkLeaseName(leaseName, "lease-name");
        checkNamespace(leaseNamespace, "lease-namespace");
        if (identity == null || identity.isBlank()) {
            throw new IllegalArgumentException("identity must not be blank");
        }
        LeaseTimings.check(leaseDuration, renewDeadline, retryPeriod, "");
    }

    /** Settings with client-go's timings, releasing the Lease on shutdown and exiting when it is lost. */
    public static Builder builder(String leaseNamespace, String leaseName, String identity) {
        return new Builder(leaseNamespace, leaseName, identity);
    }

    /** Every leader election setting. */
    public static List<Setting<?>> all() {
        return List.of(ENABLED, LEASE_NAME, LEASE_NAMESPACE, IDENTITY, LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD,
                RELEASE_ON_SHUTDOWN, ON_LOST);
    }

    private static boolean isLeaseName(String name) {
        return name != null && name.length() <= 253 && DNS_SUBDOMAIN.matcher(name).matches();
    }

    private static boolean isNamespace(String namespace) {
        return Settings.isDnsLabel(namespace);
    }

    /** @throws IllegalArgumentException unless {@code name} is a valid Lease name (a DNS subdomain) */
    public static void checkLeaseName(String name, String setting) {
        if (!isLeaseName(name)) {
            throw new IllegalArgumentException(setting + " '" + name + "' is not a valid Lease name: lower-case "
                    + "letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters");
        }
    }

    /** @throws IllegalArgumentException unless {@code namespace} is a valid namespace name (a DNS label) */
    public static void checkNamespace(String namespace, String setting) {
        if (!isNamespace(namespace)) {
            throw new IllegalArgumentException(setting + " '" + namespace + "' is not a valid namespace name: "
                    + "lower-case letters, digits and '-', at most 63 characters");
        }
    }

    /** How long the workers get to end after losing the Lease: the margin before others may take it. */
    Duration interruptGrace() {
        return leaseDuration.minus(renewDeadline);
    }

    /** "ns/name", for logs. */
    String lease() {
        return leaseNamespace + "/" + leaseName;
    }

    /** Builds {@link LeaderElectionSettings}; not thread-safe. */
    public static final class Builder {
        private final String leaseNamespace;
        private final String leaseName;
        private final String identity;
        private Duration leaseDuration = DEFAULT_LEASE_DURATION;
        private Duration renewDeadline = DEFAULT_RENEW_DEADLINE;
        private Duration retryPeriod = DEFAULT_RETRY_PERIOD;
        private boolean releaseOnShutdown = RELEASE_ON_SHUTDOWN.defaultValue();
        private OnLost onLost = ON_LOST.defaultValue();

        private Builder(String leaseNamespace, String leaseName, String identity) {
            this.leaseNamespace = leaseNamespace;
            this.leaseName = leaseName;
            this.identity = identity;
        }

        public Builder leaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
            return this;
        }

        public Builder renewDeadline(Duration renewDeadline) {
            this.renewDeadline = renewDeadline;
            return this;
        }

        public Builder retryPeriod(Duration retryPeriod) {
            this.retryPeriod = retryPeriod;
            return this;
        }

        public Builder releaseOnShutdown(boolean releaseOnShutdown) {
            this.releaseOnShutdown = releaseOnShutdown;
            return this;
        }

        public Builder onLost(OnLost onLost) {
            this.onLost = onLost;
            return this;
        }

        /** @throws IllegalArgumentException if a setting is invalid, naming it */
        public LeaderElectionSettings build() {
            return new LeaderElectionSettings(leaseNamespace, leaseName, identity, leaseDuration, renewDeadline,
                    retryPeriod, releaseOnShutdown, onLost);
        }
    }
}
