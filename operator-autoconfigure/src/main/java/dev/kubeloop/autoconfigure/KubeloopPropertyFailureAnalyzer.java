package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.Setting;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
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
 * checks later (the {@link Setting#allowed()} of the runtime's catalog). Spring Boot's own analyzer
 * only says "failed to convert" for most types. Ordered before Spring Boot's analyzers; values of
 * the right type but out of range are reported by {@link KubeloopFailureAnalyzer}, with the same
 * wording of what is allowed.
 */
final class KubeloopPropertyFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private static final String PREFIX = "kubeloop.";
    private static final String DURATION_FORMAT = " such as 500ms, 30s, 2m or PT1M (a number alone is milliseconds)";

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
        String range = setting(name).map(Setting::allowed).orElse(null);
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

    /** The setting of {@code property}; a reconciler's settings by their {@code kubeloop.reconcilers.*.} form. */
    static Optional<Setting<?>> setting(String property) {
        return SettingsCatalog.setting(property);
    }

    private static String value(BindException bind) {
        ConfigurationProperty property = bind.getProperty();
        return property == null ? "?" : String.valueOf(property.getValue());
    }
}
