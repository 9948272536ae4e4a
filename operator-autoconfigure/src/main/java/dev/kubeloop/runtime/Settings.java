package dev.kubeloop.runtime;

import dev.kubeloop.api.Reconciler;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.TokenBucketRateLimiter;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalog of the runtime's settings: one {@link Setting} per property, with the
 * default the runtime uses when it is not set. Defaults follow client-go and controller-runtime:
 * the rate limiter's are the work queue's own constants, a reconciler's are those of the
 * {@link Reconciler @Reconciler} annotation, read from it. The other catalogs have the same form
 * ({@code XxxSettings} with its constants and {@code all()}): {@code LeaderElectionSettings},
 * {@code ShardingSettings}, {@code WebhookSettings}. Stateless.
 */
public final class Settings {

    // first: the settings below use them while the class initializes
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern QUALIFIED_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(-?\\d+)(ns|us|ms|s|m|h|d)?");

    /** Whether Kubeloop runs at all (Spring Boot only). */
    public static final Setting<Boolean> ENABLED = Setting.any("enabled", true, "true or false");

    /** Namespaces every reconciler watches unless it names its own; empty: all. */
    public static final Setting<List<String>> NAMESPACES = Setting.of("namespaces", List.<String>of(),
            "a list of namespace names", Settings::validNamespaces).describedAs("all namespaces");

    /** How long start-up waits for every informer's first list. */
    public static final Setting<Duration> CACHE_SYNC_TIMEOUT = Setting.of("cache-sync-timeout", Duration.ofMinutes(2),
            "a positive duration", Settings::positive);

    /** How long shutdown waits for reconciles in flight. */
    public static final Setting<Duration> SHUTDOWN_TIMEOUT = Setting.of("shutdown-timeout", Duration.ofSeconds(30),
            "a duration of 0 or more", Settings::notNegative);

    /** Whether a SIGTERM exits 0 once the graceful shutdown has run (the JVM's own handling: 143). */
    public static final Setting<Boolean> EXIT_ZERO_ON_SIGTERM = Setting.any("exit-zero-on-sigterm", true,
            "true or false");

    /** Whether cached objects drop metadata.managedFields. */
    public static final Setting<Boolean> STRIP_MANAGED_FIELDS = Setting.any("strip-managed-fields", true,
            "true or false");

    /** Objects per page of an informer's list; 0: one response. */
    public static final Setting<Long> INFORMER_LIST_PAGE_SIZE = Setting.of("informer-list-page-size", 0L,
            "a whole number of 0 or more (0 lists in one response; client-go pages by 500)", size -> size >= 0);

    /** Whether the application exits once it is ready (a training run for the JVM's AOT cache or CDS). */
    public static final Setting<Boolean> EXIT_WHEN_READY = Setting.any("exit-when-ready", false, "true or false");

    /**
     * Whether a reconcile reads its controller's own writes even before the informer delivers them,
     * instead of an older cached object.
     */
    public static final Setting<Boolean> READ_YOUR_WRITES = Setting.any("read-your-writes", true, "true or false");

    /** How often the API server is asked whether optional types (a CRD that may be absent) are served. */
    public static final Setting<Duration> OPTIONAL_TYPE_POLL_INTERVAL = Setting.of("optional-type-poll-interval",
            Duration.ofSeconds(10), "a positive duration", Settings::positive);

    /** The per-key backoff's first delay. */
    public static final Setting<Duration> RATE_LIMITER_BASE_DELAY = Setting.of("rate-limiter.base-delay",
            ExponentialBackoffRateLimiter.DEFAULT_BASE_DELAY, "a positive duration, at most max-delay",
            Settings::positive);

    /** The per-key backoff's longest delay. */
    public static final Setting<Duration> RATE_LIMITER_MAX_DELAY = Setting.of("rate-limiter.max-delay",
            ExponentialBackoffRateLimiter.DEFAULT_MAX_DELAY, "a positive duration, at least base-delay",
            Settings::positive);

    /** The reconciler-wide bucket's refill rate. */
    public static final Setting<Double> RATE_LIMITER_QPS = Setting.of("rate-limiter.qps",
            TokenBucketRateLimiter.DEFAULT_QPS, "a positive number such as 10 or 0.5",
            TokenBucketRateLimiter::validQps);

    /** The reconciler-wide bucket's size. */
    public static final Setting<Integer> RATE_LIMITER_BURST = Setting.of("rate-limiter.burst",
            TokenBucketRateLimiter.DEFAULT_BURST, "a whole number of 1 or more", TokenBucketRateLimiter::validBurst);

    /** Failed reconciles each reconciler keeps for introspection. */
    public static final Setting<Integer> INTROSPECTION_LAST_ERRORS = Setting.of("introspection.last-errors", 20,
            "a whole number of 0 or more", count -> count >= 0);

    /** Whether reconciles, their API requests and webhook requests are observed (with an ObservationRegistry). */
    public static final Setting<Boolean> TRACING_ENABLED = Setting.any("tracing.enabled", true, "true or false");
    /** The annotation whose W3C traceparent a reconcile of the object's own change joins. */
    public static final Setting<String> TRACING_ANNOTATION = Setting.of("tracing.annotation",
            Tracing.DEFAULT_ANNOTATION, "an annotation key such as example.com/traceparent (an optional DNS subdomain "
                    + "and a slash, then a name of at most 63 characters)", Settings::isQualifiedName);
    /** Whether the objects a traced reconcile applies carry its traceparent in the tracing annotation. */
    public static final Setting<Boolean> TRACING_PROPAGATE = Setting.any("tracing.propagate", false, "true or false");
    /** Worker threads of one reconciler. */
    public static final Setting<Integer> WORKERS = Setting.of("reconcilers.*.workers",
            (Integer) annotationDefault("workers"), "a whole number of 1 or more", workers -> workers >= 1);

    /** Namespaces one reconciler watches. */
    public static final Setting<List<String>> RECONCILER_NAMESPACES = Setting.of("reconcilers.*.namespaces",
            List.<String>of(), "a list of namespace names", Settings::validNamespaces)
            .describedAs("kubeloop.namespaces, else all namespaces");

    /** Label selector of one reconciler's primaries. */
    public static final Setting<String> LABEL_SELECTOR = Setting.any("reconcilers.*.label-selector",
            (String) annotationDefault("labelSelector"), "a label selector such as app=web,tier!=cache")
            .describedAs("none: every object");

    /** Whether status-only updates of the primary are skipped. */
    public static final Setting<Boolean> GENERATION_AWARE = Setting.any("reconcilers.*.generation-aware",
            (Boolean) annotationDefault("generationAware"), "true or false");

    /** How often every cached primary is reconciled again; 0 disables. */
    public static final Setting<Duration> RESYNC_PERIOD = Setting.of("reconcilers.*.resync-period",
            parseDuration((String) annotationDefault("resyncPeriod")), "a duration of 0 or more (0 disables resync)",
            Settings::notNegative);

    /** How long one reconcile may run before it is interrupted; 0: no limit. */
    public static final Setting<Duration> RECONCILE_TIMEOUT = Setting.of("reconcilers.*.reconcile-timeout",
            parseDuration((String) annotationDefault("reconcileTimeout")),
            "a duration of 0 or more (0 means no limit)", Settings::notNegative).describedAs("none (0s)");

    /** Failed reconciles in a row after which a key rests until its object changes; 0: no limit. */
    public static final Setting<Integer> MAX_ATTEMPTS = Setting.of("reconcilers.*.max-attempts",
            (Integer) annotationDefault("maxAttempts"), "a whole number of 0 or more (0 means no limit)",
            attempts -> attempts >= 0).describedAs("none (0: retried with backoff for ever)");

    /** The field manager of a reconciler's server-side applies. */
    public static final Setting<String> FIELD_MANAGER = Setting.derived("reconcilers.*.field-manager",
            "the reconciler's name", "a field manager name of at most 128 bytes (UTF-8), without control characters",
            manager -> !manager.isBlank() && manager.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                    <= dev.kubeloop.api.ApplyOptions.MAX_FIELD_MANAGER_BYTES
                    && manager.chars().noneMatch(Character::isISOControl));

    /** The finalizer of a reconciler that implements Cleaner. */
    public static final Setting<String> FINALIZER = Setting.derived("reconcilers.*.finalizer",
            "<name>.kubeloop.dev/finalizer for a Cleaner, else none",
            "a domain-qualified name such as example.com/cleanup", finalizer -> true);

    private static final List<Setting<?>> ALL = List.of(ENABLED, NAMESPACES, CACHE_SYNC_TIMEOUT, SHUTDOWN_TIMEOUT,
            EXIT_ZERO_ON_SIGTERM, TRACING_ENABLED, TRACING_ANNOTATION, TRACING_PROPAGATE,
            STRIP_MANAGED_FIELDS, INFORMER_LIST_PAGE_SIZE, EXIT_WHEN_READY, READ_YOUR_WRITES,
            OPTIONAL_TYPE_POLL_INTERVAL, RATE_LIMITER_BASE_DELAY, RATE_LIMITER_MAX_DELAY,
            RATE_LIMITER_QPS, RATE_LIMITER_BURST, INTROSPECTION_LAST_ERRORS, WORKERS, RECONCILER_NAMESPACES,
            LABEL_SELECTOR, GENERATION_AWARE, RESYNC_PERIOD, RECONCILE_TIMEOUT, MAX_ATTEMPTS, FIELD_MANAGER, FINALIZER);

    private Settings() {
    }

    /** Every setting of this catalog. */
    public static List<Setting<?>> all() {
        return ALL;
    }

    /**
     * True for a qualified name, what label and annotation keys must be: an optional DNS subdomain
     * prefix and a slash, then a name of at most 63 characters (alphanumerics, {@code -_.}, starting
     * and ending alphanumeric).
     */
    public static boolean isQualifiedName(String key) {
        if (key == null) {
            return false;
        }
        int slash = key.indexOf('/');
        String name = key.substring(slash + 1);
        boolean prefixOk = slash < 0 || (slash <= 253 && DNS_SUBDOMAIN.matcher(key.substring(0, slash)).matches());
        return prefixOk && name.length() <= 63 && QUALIFIED_NAME.matcher(name).matches();
    }

    /** True for a DNS label: what namespace and reconciler names must be. */
    public static boolean isDnsLabel(String name) {
        return name != null && DNS_LABEL.matcher(name).matches();
    }

    /**
     * Parses a duration the way the annotation's attributes are written: Spring Boot's simple
     * style ({@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d}; a bare number is
     * milliseconds) or ISO-8601 ({@code PT1H}); blank means zero.
     *
     * @throws IllegalArgumentException if {@code text} is neither
     */
    public static Duration parseDuration(String text) {
        if (text == null || text.isBlank()) {
            return Duration.ZERO;
        }
        String trimmed = text.trim();
        Matcher simple = SIMPLE_DURATION.matcher(trimmed.toLowerCase(Locale.ROOT));
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            String unit = simple.group(2) == null ? "ms" : simple.group(2);
            return switch (unit) {
                case "ns" -> Duration.ofNanos(amount);
                case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        try {
            return Duration.parse(trimmed);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration", e);
        }
    }

    /** True for a duration above zero (what every timeout setting accepts). */
    public static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }

    private static boolean notNegative(Duration duration) {
        return !duration.isNegative();
    }

    private static boolean validNamespaces(List<String> namespaces) {
        return namespaces.stream().allMatch(namespace -> isDnsLabel(namespace == null ? null : namespace.trim()));
    }

    private static Object annotationDefault(String attribute) {
        try {
            Method method = Reconciler.class.getMethod(attribute);
            return method.getDefaultValue();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("@Reconciler has no attribute " + attribute, e);
        }
    }
}
