package dev.kubeloop.api.conditions;

/** A condition's status: {@code True}, {@code False} or {@code Unknown}. */
public enum ConditionStatus {
    TRUE("True"),
    FALSE("False"),
    UNKNOWN("Unknown");

    private final String value;

    ConditionStatus(String value) {
        this.value = value;
    }

    /** {@code True} for true, {@code False} for false. */
    public static ConditionStatus of(boolean status) {
        return status ? TRUE : FALSE;
    }

    /** As the API writes it. */
    public String value() {
        return value;
    }
}
