package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;

/**
 * Keeps the application's liveness in line with the runtime, the Spring Boot way
 * ({@link AvailabilityChangeEvent}): {@link LivenessState#BROKEN} when the runtime breaks (a worker
 * thread died, the manager failed to start, or an informer stopped for good), so the liveness probe
 * fails and Kubernetes restarts the pod; nothing else makes it broken: slow or failing reconciles
 * never do, or a pod stuck on one bad object would be restarted in a loop.
 *
 * <p>Waiting for the caches is not broken either. The manager starts inside the context refresh
 * (so that a missing CRD fails startup), and Spring Boot reports liveness as BROKEN until the
 * application has started, which would fail the liveness probe for as long as the first lists take
 * (up to {@code kubeloop.cache-sync-timeout}). So when the manager starts and nobody has set
 * liveness yet, it is set to {@code CORRECT}; readiness stays OUT_OF_SERVICE until the caches have
 * synced.
 *
 * <p>Boot sets liveness to {@code CORRECT} again once the application has started; a break that
 * happened before that is published again when the application is ready. Thread-safe: the first
 * cause is kept in an atomic reference; events are published from whichever runtime thread saw it.
 */
final class KubeloopAvailability implements ControllerObserver, ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(KubeloopAvailability.class);

    private final ApplicationEventPublisher publisher;
    private final ObjectProvider<ApplicationAvailability> availability;
    private final AtomicReference<String> broken = new AtomicReference<>();

    KubeloopAvailability(ApplicationEventPublisher publisher, ObjectProvider<ApplicationAvailability> availability) {
        this.publisher = publisher;
        this.availability = availability;
    }

    @Override
    public void managerStarting(ControllerManager manager) {
        ApplicationAvailability current = availability.getIfAvailable();
        if (broken.get() == null && current != null && current.getLastChangeEvent(LivenessState.class) == null) {
            log.debug("Liveness set to CORRECT while the caches sync");
            AvailabilityChangeEvent.publish(publisher, this, LivenessState.CORRECT);
        }
    }

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        return new ControllerListener() {
            @Override
            public void workerDied(Throwable error) {
                markBroken("a worker of controller " + config.name() + " died: " + error);
            }
        };
    }

    @Override
    public void managerFailed(ControllerManager manager, Throwable error) {
        markBroken("the controller manager failed to start: " + error);
    }

    @Override
    public void informerFailed(InformerStatus informer, Throwable error) {
        markBroken("the informer of " + informer.describe() + " stopped: " + error);
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (broken.get() != null) {
            publish();
        }
    }

    /** Why liveness was marked broken, or null if it was not. */
    String brokenReason() {
        return broken.get();
    }

    private void markBroken(String reason) {
        if (broken.compareAndSet(null, reason)) {
            log.error("Kubeloop runtime broken, liveness set to BROKEN: {}", reason);
        }
        publish();
    }

    private void publish() {
        AvailabilityChangeEvent.publish(publisher, this, LivenessState.BROKEN);
    }
}
