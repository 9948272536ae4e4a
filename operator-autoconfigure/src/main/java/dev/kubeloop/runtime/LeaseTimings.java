package dev.kubeloop.runtime;

import java.time.Duration;

/**
 * The one rule for a Lease's three timings, shared by leader election and sharding. Their meaning
 * is client-go's: the holder renews every {@code retry-period}; one that has not renewed for
 * {@code renew-deadline} stops acting; others may take over {@code lease-duration} after its last
 * renewal.
 *
 * <ul>
 *   <li>{@code lease-duration > renew-deadline}: a holder that cannot renew stops before anyone
 *       else may start (client-go: "leaseDuration must be greater than renewDeadline").
 *   <li>{@code renew-deadline >= 2 × retry-period}: the holder gets a second renewal attempt
 *       before it gives up. client-go only requires {@code renewDeadline > JitterFactor (1.2) ×
 *       retryPeriod}; its jitter applies to a standby's acquire loop, not to renewals, which it
 *       (and fabric8's {@code LeaderElector}, which Kubeloop's leader election runs on) polls every
 *       {@code retryPeriod} without jitter. A rule of {@code > 2.2 × retry-period} read the
 *       jitter into renewals and refused timings that work; sharding renews between one and one
 *       and a half retry periods apart, so 2 × keeps its second attempt inside the deadline.
 *       Every timing this rule accepts, client-go accepts too.
 *   <li>{@code lease-duration} in whole seconds: the Lease stores {@code leaseDurationSeconds}.
 * </ul>
 *
 * Stateless.
 */
public final class LeaseTimings {

    /** Renewal attempts the renew deadline must leave room for, counted in retry periods. */
    public static final int RETRY_PERIODS_PER_RENEW_DEADLINE = 2;

    private LeaseTimings() {
    }

    /**
     * Checks the three timings against each other.
     *
     * @param prefix put before each setting's name in the message ({@code kubeloop.sharding.})
     * @throws IllegalArgumentException naming the settings at fault and why
     */
    public static void check(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, String prefix) {
        positive(leaseDuration, prefix + "lease-duration");
        positive(renewDeadline, prefix + "renew-deadline");
        positive(retryPeriod, prefix + "retry-period");
        if (leaseDuration.getNano() != 0) {
            throw new IllegalArgumentException(prefix + "lease-duration must be a whole number of seconds (the Lease "
                    + "stores leaseDurationSeconds), was " + Setting.format(leaseDuration));
        }
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException(prefix + "lease-duration (" + Setting.format(leaseDuration)
                    + ") must be longer than " + prefix + "renew-deadline (" + Setting.format(renewDeadline)
                    + "): a holder that cannot renew must stop acting before another replica may take over");
        }
        if (renewDeadline.compareTo(retryPeriod.multipliedBy(RETRY_PERIODS_PER_RENEW_DEADLINE)) < 0) {
            throw new IllegalArgumentException(prefix + "renew-deadline (" + Setting.format(renewDeadline)
                    + ") must be at least " + RETRY_PERIODS_PER_RENEW_DEADLINE + " × " + prefix + "retry-period ("
                    + Setting.format(retryPeriod) + "): the holder needs more than one renewal attempt before it "
                    + "gives up");
        }
    }

    /** The rule in words, for failure analyses and the documentation. */
    public static String rule() {
        return "lease-duration > renew-deadline >= " + RETRY_PERIODS_PER_RENEW_DEADLINE + " × retry-period";
    }

    private static void positive(Duration duration, String setting) {
        if (duration == null || !Settings.positive(duration)) {
            throw new IllegalArgumentException(setting + " must be a positive duration, was "
                    + (duration == null ? "empty" : Setting.format(duration)));
        }
    }
}
