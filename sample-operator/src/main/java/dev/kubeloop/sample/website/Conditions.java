package dev.kubeloop.sample.website;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Sets status conditions the way Kubernetes API conventions ask: lastTransitionTime moves only on a status change. */
final class Conditions {

    static final String READY = "Ready";
    static final String PROGRESSING = "Progressing";
    static final String DEGRADED = "Degraded";

    private Conditions() {
    }

    static void set(WebsiteStatus status, String type, boolean value, String reason, String message, long generation,
            Instant now) {
        List<Condition> conditions = status.getConditions() == null ? new ArrayList<>()
                : new ArrayList<>(status.getConditions());
        String statusValue = value ? "True" : "False";
        Condition previous = status.condition(type).orElse(null);
        String transition = previous != null && statusValue.equals(previous.getStatus())
                ? previous.getLastTransitionTime()
                : now.truncatedTo(ChronoUnit.SECONDS).toString();
        Condition next = new ConditionBuilder().withType(type).withStatus(statusValue).withReason(reason)
                .withMessage(message).withObservedGeneration(generation).withLastTransitionTime(transition).build();
        conditions.removeIf(c -> type.equals(c.getType()));
        conditions.add(next);
        conditions.sort((a, b) -> Integer.compare(order(a.getType()), order(b.getType())));
        status.setConditions(conditions);
    }

    private static int order(String type) {
        return switch (type) {
            case READY -> 0;
            case PROGRESSING -> 1;
            case DEGRADED -> 2;
            default -> 3;
        };
    }
}
