package dev.kubeloop.observation;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.observation.KubeloopObservations.ReconcileKeys;
import dev.kubeloop.observation.KubeloopObservations.RequestKeys;
import dev.kubeloop.observation.KubeloopObservations.StepKeys;
import dev.kubeloop.observation.KubeloopObservations.WebhookKeys;
import dev.kubeloop.runtime.Tracing;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The runtime's {@link Tracing} on a Micrometer {@link ObservationRegistry}: a reconcile is an
 * observation {@code kubeloop.reconcile}, its runtime writes {@code kubeloop.reconcile.step}, its API
 * requests {@code kubeloop.api.request} ({@link KubeloopObservations}). With Micrometer Tracing
 * handlers on the registry they are spans (a reconcile's trace and span ids in the MDC while it
 * runs); with a meter handler, timers. A no-op registry turns tracing off in the runtime
 * ({@link #on()} is false), so nothing is observed and nothing allocated per key.
 *
 * <p>Thread-safe: stateless but for the registry; each span belongs to one reconcile.
 */
public final class ObservationTracing implements Tracing {

    private final ObservationRegistry registry;
    private final String annotation;
    private final boolean propagates;

    /** @param annotation the annotation carrying a traceparent to join ({@link Tracing#DEFAULT_ANNOTATION}) */
    public ObservationTracing(ObservationRegistry registry, String annotation) {
        this(registry, annotation, false);
    }

    /**
     * @param annotation the annotation carrying a traceparent to join ({@link Tracing#DEFAULT_ANNOTATION})
     * @param propagates whether applied objects carry the reconcile's traceparent in it ({@link #propagates()})
     */
    public ObservationTracing(ObservationRegistry registry, String annotation, boolean propagates) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.annotation = Objects.requireNonNull(annotation, "annotation");
        this.propagates = propagates;
    }

    @Override
    public boolean on() {
        return !registry.isNoop();
    }

    @Override
    public String annotation() {
        return annotation;
    }

    @Override
    public boolean propagates() {
        return propagates;
    }

    @Override
    public Span reconcile(Tracing.Reconcile reconcile) {
        ReconcileObservationContext context = new ReconcileObservationContext(reconcile);
        Observation observation = Observation.createNotStarted(KubeloopObservations.RECONCILE.getName(), () -> context,
                registry)
                .contextualName("reconcile " + reconcile.controller())
                .lowCardinalityKeyValue(ReconcileKeys.CONTROLLER.withValue(reconcile.controller()))
                .lowCardinalityKeyValue(ReconcileKeys.CAUSE.withValue(reconcile.cause()))
                .highCardinalityKeyValue(ReconcileKeys.KEY.withValue(reconcile.key().toString()))
                .highCardinalityKeyValue(ReconcileKeys.PRIORITY.withValue(String.valueOf(reconcile.priority())))
                .highCardinalityKeyValue(ReconcileKeys.ATTEMPT.withValue(String.valueOf(reconcile.attempt())))
                .highCardinalityKeyValue(ReconcileKeys.QUEUE_WAIT.withValue(
                        String.valueOf(TimeUnit.NANOSECONDS.toMillis(reconcile.waitedNanos()))));
        if (reconcile.object() != null && reconcile.object().getMetadata().getGeneration() != null) {
            observation.highCardinalityKeyValue(ReconcileKeys.GENERATION.withValue(
                    String.valueOf(reconcile.object().getMetadata().getGeneration())));
        }
        if (reconcile.causeObject() != null) {
            observation.highCardinalityKeyValue(ReconcileKeys.CAUSE_OBJECT.withValue(reconcile.causeObject()));
        }
        return new Observed(observation.start(), reconcile.controller(), Thread.currentThread(), ReconcileKeys.OUTCOME);
    }

    @Override
    public Span webhook(String path, String traceparent) {
        WebhookObservationContext context = new WebhookObservationContext(path, traceparent);
        Observation observation = Observation.createNotStarted(KubeloopObservations.WEBHOOK.getName(), () -> context,
                registry)
                .contextualName("webhook " + path)
                .lowCardinalityKeyValue(WebhookKeys.WEBHOOK.withValue(path));
        return new Observed(observation.start(), null, Thread.currentThread(), WebhookKeys.CODE);
    }

    /** A started observation as the runtime's span; its children are created with it as parent. */
    private final class Observed implements Span {

        private final Observation observation;
        private final String controller;
        /** The reconcile's thread: a request sent there nests under the step current there. */
        private final Thread owner;
        /** The attribute {@link #end} writes the outcome into. */
        private final KeyName outcomeKey;

        Observed(Observation observation, String controller, Thread owner, KeyName outcomeKey) {
            this.observation = observation;
            this.controller = controller;
            this.owner = owner;
            this.outcomeKey = outcomeKey;
        }

        @Override
        public Scope open() {
            Observation.Scope scope = observation.openScope();
            return scope::close;
        }

        @Override
        public Span child(String step, ObjectKey target) {
            Observation child = Observation.createNotStarted(KubeloopObservations.STEP.getName(), registry)
                    .parentObservation(observation)
                    .contextualName(step)
                    .lowCardinalityKeyValue(ReconcileKeys.CONTROLLER.withValue(controller))
                    .lowCardinalityKeyValue(StepKeys.STEP.withValue(step))
                    .highCardinalityKeyValue(ReconcileKeys.KEY.withValue(target.toString()))
                    .start();
            return new Observed(child, controller, owner, ReconcileKeys.OUTCOME);
        }

        @Override
        public Tracing.Request request(String method, String path, BiConsumer<String, String> header) {
            Observation parent = observation;
            if (Thread.currentThread() == owner && registry.getCurrentObservation() != null) {
                parent = registry.getCurrentObservation(); // a step of this reconcile, or the user's own
            }
            ApiRequestObservationContext context = new ApiRequestObservationContext(method, path, header);
            String resource = ApiPaths.resource(path);
            Observation request = Observation.createNotStarted(KubeloopObservations.API_REQUEST.getName(),
                    () -> context, registry)
                    .parentObservation(parent)
                    .contextualName(method + " " + resource)
                    .lowCardinalityKeyValue(ReconcileKeys.CONTROLLER.withValue(String.valueOf(controller)))
                    .lowCardinalityKeyValue(RequestKeys.METHOD.withValue(method))
                    .lowCardinalityKeyValue(RequestKeys.RESOURCE.withValue(resource))
                    .highCardinalityKeyValue(RequestKeys.PATH.withValue(path))
                    .start();
            return new Tracing.Request() {
                @Override
                public void response(int code) {
                    context.setResponse(code);
                    request.lowCardinalityKeyValue(RequestKeys.STATUS.withValue(String.valueOf(code)));
                    request.stop();
                }

                @Override
                public void failed(Throwable error) {
                    request.lowCardinalityKeyValue(RequestKeys.STATUS.withValue("none"));
                    if (error != null) {
                        request.error(error);
                    }
                    request.stop();
                }
            };
        }

        @Override
        public String traceparent() {
            return TraceParents.of(observation);
        }

        @Override
        public void end(String outcome, Throwable error) {
            observation.lowCardinalityKeyValue(outcomeKey.withValue(outcome));
            if (error != null) {
                observation.highCardinalityKeyValue(ReconcileKeys.ERROR.withValue(error.getClass().getSimpleName() + ": "
                        + error.getMessage()));
                observation.error(error);
            }
            observation.stop();
        }
    }
}
