package dev.kubeloop.api.conditions;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Status conditions as the Kubernetes API conventions define them (KEP-1623, {@code metav1.Condition}),
 * on fabric8's {@link Condition}: one condition per type; {@code lastTransitionTime} changes only
 * when the status changes; {@code observedGeneration} says which spec the condition describes;
 * {@code reason} is a CamelCase word a machine can match on, {@code message} a sentence for people.
 *
 * <pre>{@code
 * Conditions.set(status.getConditions(), "Ready", ConditionStatus.TRUE, "Available", "3/3 replicas ready",
 *         site.getMetadata().getGeneration());
 * boolean ready = Conditions.isTrue(site.getStatus().getConditions(), "Ready");
 * }</pre>
 *
 * Setting a condition to what it already says changes nothing (not even its time), so a status
 * written with {@code applyStatus} is only sent when something changed. Stateless; the lists are
 * the caller's (not thread-safe).
 */
public final class Conditions {

    /** {@code metav1.Condition}'s reason pattern. */
    private static final Pattern REASON = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");
    /** {@code metav1.Condition}'s type pattern: a qualified name (an optional DNS prefix, then a name). */
    private static final Pattern TYPE = Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
            + "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])");
    private static final int MAX_REASON = 1024;
    private static final int MAX_TYPE = 316;
    private static final int MAX_MESSAGE = 32768;

    private Conditions() {
    }

    /** {@link #set(List, String, ConditionStatus, String, String, Long, Instant)} at the current time. */
    public static boolean set(List<Condition> conditions, String type, ConditionStatus status, String reason,
            String message, Long observedGeneration) {
        return set(conditions, type, status, reason, message, observedGeneration, Clock.systemUTC().instant());
    }

    /**
     * Sets the condition {@code type}: adds it, or updates it in place. Its
     * {@code lastTransitionTime} becomes {@code now} (to the second) only if it is new or its
     * status changed.
     *
     * @param conditions the object's conditions, modified in place (must be mutable)
     * @return true if anything changed
     * @throws IllegalArgumentException if the type, reason or message break the API conventions
     */
    public static boolean set(List<Condition> conditions, String type, ConditionStatus status, String reason,
            String message, Long observedGeneration, Instant now) {
        Objects.requireNonNull(conditions, "conditions");
        Objects.requireNonNull(status, "status");
        checkType(type);
        checkReason(reason);
        String text = message == null ? "" : message;
        if (text.length() > MAX_MESSAGE) {
            throw new IllegalArgumentException("condition message is longer than " + MAX_MESSAGE + " characters");
        }
        Optional<Condition> existing = find(conditions, type);
        if (existing.isPresent()) {
            Condition condition = existing.get();
            boolean transition = !status.value().equals(condition.getStatus());
            boolean changed = transition || !reason.equals(condition.getReason()) || !text.equals(condition.getMessage())
                    || !Objects.equals(observedGeneration, condition.getObservedGeneration());
            if (!changed) {
                return false;
            }
            condition.setStatus(status.value());
            condition.setReason(reason);
            condition.setMessage(text);
            condition.setObservedGeneration(observedGeneration);
            if (transition) {
                condition.setLastTransitionTime(time(now));
            }
            return true;
        }
        Condition condition = new Condition();
        condition.setType(type);
        condition.setStatus(status.value());
        condition.setReason(reason);
        condition.setMessage(text);
        condition.setObservedGeneration(observedGeneration);
        condition.setLastTransitionTime(time(now));
        conditions.add(condition);
        return true;
    }

    /** The condition {@code type}, if the list has it (null lists have none). */
    public static Optional<Condition> find(@Nullable List<Condition> conditions, String type) {
        if (conditions == null) {
            return Optional.empty();
        }
        return conditions.stream().filter(condition -> type.equals(condition.getType())).findFirst();
    }

    /** Whether the condition {@code type} is present and {@code True}. */
    public static boolean isTrue(@Nullable List<Condition> conditions, String type) {
        return hasStatus(conditions, type, ConditionStatus.TRUE);
    }

    /** Whether the condition {@code type} is present and {@code False}. */
    public static boolean isFalse(@Nullable List<Condition> conditions, String type) {
        return hasStatus(conditions, type, ConditionStatus.FALSE);
    }

    /**
     * Whether the condition {@code type} is present, has {@code status} and describes
     * {@code generation} (its observedGeneration): "Ready, for the spec I am looking at".
     */
    public static boolean isCurrent(@Nullable List<Condition> conditions, String type, ConditionStatus status, long generation) {
        return find(conditions, type).filter(c -> status.value().equals(c.getStatus()))
                .filter(c -> Objects.equals(c.getObservedGeneration(), generation)).isPresent();
    }

    /** Removes the condition {@code type}; true if it was there. */
    public static boolean remove(@Nullable List<Condition> conditions, String type) {
        return conditions != null && conditions.removeIf(condition -> type.equals(condition.getType()));
    }

    private static boolean hasStatus(@Nullable List<Condition> conditions, String type, ConditionStatus status) {
        return find(conditions, type).map(Condition::getStatus).filter(status.value()::equals).isPresent();
    }

    private static void checkType(String type) {
        if (type == null || type.length() > MAX_TYPE || !TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("condition type '" + type + "' is not a qualified name such as Ready "
                    + "or example.com/Ready");
        }
    }

    private static void checkReason(String reason) {
        if (reason == null || reason.length() > MAX_REASON || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("condition reason '" + reason + "' is not CamelCase (letters, digits, "
                    + "'_', ',' and ':', starting with a letter), such as ReplicasNotReady");
        }
    }

    private static String time(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
