package dev.kubeloop.webhook;

/**
 * A request received whole, queued for a webhook thread, with the moment it was queued: the
 * queue's head tells how long the oldest has waited ({@link WebhookServerStats#oldestWait}).
 * Immutable.
 */
record WaitingRequest(Runnable task, long queuedAt) implements Runnable {

    WaitingRequest(Runnable task) {
        this(task, System.nanoTime());
    }

    @Override
    public void run() {
        task.run();
    }
}
