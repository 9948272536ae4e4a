package dev.kubeloop.queue;

/**
 * An intrusive doubly linked FIFO list of entries: O(1) append, unlink and head removal without
 * allocating a node. An entry is in at most one list at a time (a priority bucket while ready, the
 * processing list while a worker holds it), which is what makes sharing its links safe.
 *
 * <p>Not thread-safe: guarded by the owning {@link PriorityWorkQueue}'s lock.
 */
class EntryList<T> {

    QueueEntry<T> head;
    QueueEntry<T> tail;
    int size;

    final void append(QueueEntry<T> entry) {
        entry.previous = tail;
        entry.next = null;
        if (tail == null) {
            head = entry;
        } else {
            tail.next = entry;
        }
        tail = entry;
        size++;
    }

    final void unlink(QueueEntry<T> entry) {
        if (entry.previous == null) {
            head = entry.next;
        } else {
            entry.previous.next = entry.next;
        }
        if (entry.next == null) {
            tail = entry.previous;
        } else {
            entry.next.previous = entry.previous;
        }
        entry.previous = null;
        entry.next = null;
        size--;
    }
}
