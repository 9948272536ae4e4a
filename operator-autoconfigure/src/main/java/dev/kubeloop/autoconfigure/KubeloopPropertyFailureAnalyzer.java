package dev.kubeloop.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Explains a {@code kubeloop.*} property whose value does not even convert to the property's type
 * ({@code kubeloop.rate-limiter.qps=fast}, {@code on-lost=sometimes}): names the property, the value
 * and where it came from, and what the property accepts: the type's format and the range Kubeloop
 * checks later. Spring Boot's own analyzer only says "failed to convert" for most types. Ordered
 * before Spring Boot's analyzers; values of the right type but out of range are reported by
 * {@link KubeloopFailureAnalyzer}, with the same wording of what is allowed.
 */
final class KubeloopPropertyFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private static final String PREFIX = "kubeloop.";
    private static final String DURATION_FORMAT = " such as 500ms, 30s, 2m or PT1M (a number alone is milliseconds)";

    /** The range Kubeloop checks, by property; reconciler properties as {@code kubeloop.reconcilers.*.<setting>}. */
    private static final Map<String, String> RANGES = Map.ofEntries(
            Map.entry("kubeloop.cache-sync-timeout", "a positive duration"),
            Map.entry("kubeloop.shutdown-timeout", "a duration of 0 or more"),
            Map.entry("kubeloop.rate-limiter.base-delay", "a positive duration, at most max-delay"),
            Map.entry("kubeloop.rate-limiter.max-delay", "a positive duration, at least base-delay"),
            Map.entry("kubeloop.rate-limiter.qps", "a positive number such as 10 or 0.5"),
            Map.entry("kubeloop.rate-limiter.burst", "a whole number of 1 or more"),
            Map.entry("kubeloop.introspection.last-errors", "a whole number of 0 or more"),
            Map.entry("kubeloop.leader-election.lease-duration",
                    "a whole number of seconds, longer than renew-deadline"),
            Map.entry("kubeloop.leader-election.renew-deadline",
                    "a positive duration, shorter than lease-duration and longer than 2.2 × retry-period"),
            Map.entry("kubeloop.leader-election.retry-period", "a positive duration"),
            Map.entry("kubeloop.reconcilers.*.workers", "a whole number of 1 or more"),
            Map.entry("kubeloop.reconcilers.*.resync-period", "a duration of 0 or more (0 disables resync)"),
            Map.entry("kubeloop.reconcilers.*.reconcile-timeout", "a duration of 0 or more (0 means no limit)"));

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        String name = cause.getName().toString();
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        return analysis(name, value(cause), cause.getTarget().getType().resolve(), cause.getOrigin(), cause);
    }

    private static FailureAnalysis analysis(String name, String value, Class<?> type, Origin origin,
            Throwable failure) {
        String allowed = allowed(name, type);
        String description = "Property " + name + " has an invalid value '" + value + "'"
                + (origin == null ? "" : " (from " + origin + ")") + ": it must be " + allowed + ".";
        String action = "Set " + name + " to " + allowed + ", or remove it to use the default.";
        return new FailureAnalysis(description, action, failure);
    }

    /** What {@code name} accepts, e.g. "one of exit, standby" or "a positive duration such as 500ms, ...". */
    static String allowed(String name, Class<?> type) {
        String range = RANGES.get(name.replaceFirst("^kubeloop\\.reconcilers\\.[^.]+\\.", "kubeloop.reconcilers.*."));
        boolean duration = Duration.class.equals(type);
        if (range != null) {
            return range + (duration ? DURATION_FORMAT : "");
        }
        if (type == null) {
            return "a valid value";
        }
        if (duration) {
            return "a duration" + DURATION_FORMAT;
        }
        if (Boolean.class.equals(type) || boolean.class.equals(type)) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .collect(Collectors.joining(", "));
        }
        if (Integer.class.equals(type) || int.class.equals(type) || Long.class.equals(type) || long.class.equals(type)) {
            return "a whole number";
        }
        if (Double.class.equals(type) || double.class.equals(type)) {
            return "a number";
        }
        return "a " + type.getSimpleName();
    }

    private static String value(BindException bind) {
        ConfigurationProperty property = bind.getProperty();
        return property == null ? "?" : String.valueOf(property.getValue());
    }
}
