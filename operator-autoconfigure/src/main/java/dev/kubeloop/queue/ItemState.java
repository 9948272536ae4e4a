package dev.kubeloop.queue;

/**
 * Where one item stands in a {@link PriorityWorkQueue}, as {@link PriorityWorkQueue#state} reports
 * it: what a test harness or an introspection endpoint asks ("is there work left for this key?").
 */
public enum ItemState {
    /** The queue holds nothing for the item. */
    ABSENT,
    /** Only a delayed add is pending (a requeue-after or a backoff retry); nothing to do yet. */
    WAITING,
    /** Ready to be handed to the next free worker. */
    QUEUED,
    /** A worker holds the item (it may also be queued to run again after {@code done}). */
    PROCESSING;

    /** True if the item has work to do now or in flight: queued or processing. */
    public boolean busy() {
        return this == QUEUED || this == PROCESSING;
    }
}
