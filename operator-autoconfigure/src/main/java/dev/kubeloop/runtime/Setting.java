package dev.kubeloop.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One configurable setting, defined once: its property, its default and the values it accepts.
 * The runtime's builders take their defaults from it and check values with it, the Spring Boot
 * properties class initializes its fields from it, the failure analyzers quote {@link #allowed()}
 * and {@code SettingsDocumentationTest} checks the IDE metadata and {@code docs/configuration.md}
 * against it. The catalogs are {@link Settings}, {@code LeaderElectionSettings},
 * {@code ShardingSettings} and {@code WebhookSettings}, one form each (the constants and
 * {@code all()}); the auto-configuration's {@code SettingsCatalog} lists them together. Immutable.
 *
 * <p>A setting of one reconciler has a {@code *} in its property
 * ({@code kubeloop.reconcilers.*.workers}); {@link #property(String)} fills in the name.
 *
 * @param <T> the value type
 */
public final class Setting<T> {

    /** The prefix of every Kubeloop property. */
    public static final String PREFIX = "kubeloop.";

    private final String property;
    private final T defaultValue;
    private final String defaultDescription;
    private final String allowed;
    private final Predicate<? super T> accepts;

    private Setting(String name, T defaultValue, String defaultDescription, String allowed,
            Predicate<? super T> accepts) {
        this.property = PREFIX + Objects.requireNonNull(name, "name");
        this.defaultValue = defaultValue;
        this.defaultDescription = defaultDescription;
        this.allowed = Objects.requireNonNull(allowed, "allowed");
        this.accepts = Objects.requireNonNull(accepts, "accepts");
    }

    /** A setting whose values are checked by {@code accepts}, described to users as {@code allowed}. */
    public static <T> Setting<T> of(String name, T defaultValue, String allowed, Predicate<? super T> accepts) {
        return new Setting<>(name, defaultValue, null, allowed, accepts);
    }

    /** A setting that accepts any value of its type. */
    public static <T> Setting<T> any(String name, T defaultValue, String allowed) {
        return new Setting<>(name, defaultValue, null, allowed, value -> true);
    }

    /**
     * A setting without a fixed default: when unset, a value is derived at startup
     * ({@code described} says how, for the documentation).
     */
    public static <T> Setting<T> derived(String name, String described, String allowed, Predicate<? super T> accepts) {
        return new Setting<>(name, null, Objects.requireNonNull(described, "described"), allowed, accepts);
    }

    /**
     * The same setting with its default described in words for the documentation ("all
     * namespaces"), where the value itself (an empty list) says little.
     */
    public Setting<T> describedAs(String description) {
        return new Setting<>(property.substring(PREFIX.length()), defaultValue,
                Objects.requireNonNull(description, "description"), allowed, accepts);
    }

    /** {@code kubeloop.<name>}, with {@code *} for the reconciler's name in per-reconciler settings. */
    public String property() {
        return property;
    }

    /** The property of reconciler {@code reconciler}'s setting, e.g. {@code kubeloop.reconcilers.website.workers}. */
    public String property(String reconciler) {
        return property.replace("*", reconciler);
    }

    /** The default; null when it is derived at startup. */
    public T defaultValue() {
        return defaultValue;
    }

    /** What users accept, in words: "a positive duration", "a whole number of 1 or more". */
    public String allowed() {
        return allowed;
    }

    /** Whether {@code value} is acceptable (null never is). */
    public boolean accepts(T value) {
        return value != null && accepts.test(value);
    }

    /**
     * {@code value}, if acceptable.
     *
     * @throws KubeloopConfigurationException naming the property, the value and what it accepts
     */
    public T check(T value) {
        if (!accepts(value)) {
            throw new KubeloopConfigurationException("Property " + property + " has an invalid value '"
                    + format(value) + "': it must be " + allowed + ".",
                    "Set " + property + " to " + allowed + ", or remove it to use the default"
                            + (defaultValue == null ? "" : " (" + format(defaultValue) + ")") + ".");
        }
        return value;
    }

    /**
     * The default as the documentation writes it: its description if it has one (always for a
     * default derived at startup), else the value as {@link #format} writes it ({@code 2m},
     * {@code true}, {@code 100}).
     */
    public String defaultText() {
        if (defaultDescription != null) {
            return defaultDescription;
        }
        return defaultValue == null ? "" : format(defaultValue);
    }

    /** Durations in Spring Boot's simple style ({@code 5ms}, {@code 30s}, {@code 2m}, {@code 10h}); lists comma-separated. */
    public static String format(Object value) {
        if (value instanceof Duration duration) {
            return formatDuration(duration);
        }
        if (value instanceof Collection<?> collection) {
            return String.join(",", collection.stream().map(String::valueOf).toList());
        }
        if (value instanceof Enum<?> constant) {
            return constant.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Double number && number == Math.rint(number)) {
            return String.valueOf(number.longValue());
        }
        return String.valueOf(value);
    }

    private static String formatDuration(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        long nanos = duration.toNanos();
        long[] units = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L,
            1_000L, 1L};
        String[] suffixes = {"d", "h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < units.length; i++) {
            if (nanos % units[i] == 0) {
                return nanos / units[i] + suffixes[i];
            }
        }
        return nanos + "ns";
    }

    @Override
    public String toString() {
        return property + " (default " + (defaultText().isEmpty() ? "none" : defaultText()) + ")";
    }
}
