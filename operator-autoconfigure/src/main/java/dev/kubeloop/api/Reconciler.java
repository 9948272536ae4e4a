package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link ResourceReconciler} as a controller and configures it; what an annotation cannot
 * say (watches of related types, mappers, indexes, predicates) the reconciler declares by also
 * implementing {@link dev.kubeloop.api.watch.WatchConfigurer}. Annotated classes in the
 * application's packages (those of its {@code @SpringBootApplication}) become beans
 * automatically; a {@code ResourceReconciler} bean declared any other way is a controller too and
 * may carry this annotation for its settings.
 *
 * <p>Every attribute can be overridden per reconciler with {@code kubeloop.reconcilers.<name>.*}
 * properties. Durations use Spring Boot's format ({@code 30s}, {@code 10m}, {@code PT1H}).
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface Reconciler {

    /** The controller's name in logs, metrics and properties; default: the primary kind, lower-case (e.g. {@code website}). */
    String name() default "";

    /** Worker threads, i.e. objects reconciled concurrently (controller-runtime's MaxConcurrentReconciles). */
    int workers() default 1;

    /** Namespaces to watch; empty watches all namespaces. */
    String[] namespaces() default {};

    /** A label selector ({@code app=web,tier!=cache}) limiting which primaries are watched. */
    String labelSelector() default "";

    /** Types this reconciler creates and owns: their changes re-enqueue the owner (by controller owner reference). */
    Class<? extends HasMetadata>[] owns() default {};

    /**
     * Kinds this reconciler deletes: owned kinds that pruning removes (one it applies in some
     * reconciles and not in others, like a ConfigMap only a TLS site needs) and kinds it passes to
     * {@code context.delete}. A declaration for the generated RBAC ({@code kubeloop:manifests}),
     * which grants {@code delete} on these kinds only: owned kinds that are always applied go with
     * their primary through the garbage collector and need no delete. A deletion of a kind not
     * listed here is refused by the generated Role (403): the runtime logs one WARN per kind when
     * it sees one, and the test kit fails the test.
     */
    Class<? extends HasMetadata>[] deletes() default {};

    /** Skip primary updates that change neither generation, labels, annotations, finalizers nor deletion. */
    boolean generationAware() default true;

    /** How often every cached primary is reconciled again even without changes; empty or {@code 0} disables. */
    String resyncPeriod() default "10h";

    /**
     * The finalizer of a reconciler that implements {@link Cleaner}; default:
     * {@code <name>.kubeloop.dev/finalizer}. Naming one on a reconciler that is not a
     * {@code Cleaner} fails startup: without cleanup a finalizer only holds objects back.
     */
    String finalizer() default "";

    /** Interrupt and retry a reconcile that runs longer than this; empty means no limit. */
    String reconcileTimeout() default "";

    /**
     * Failed reconciles in a row after which a key rests: no more retries, a Warning event
     * {@code RetriesExhausted}, and a {@code Stalled} condition when the status has conditions,
     * until the object changes or something else queues the key; {@code 0} means no limit, a
     * failing key is retried with backoff for ever (client-go's default).
     */
    int maxAttempts() default 0;

    /**
     * The field manager of the reconciler's server-side applies ({@code context.apply},
     * {@code applyStatus}); default: the reconciler's name. At most 128 bytes (UTF-8).
     */
    String fieldManager() default "";

    /**
     * The primary type may not be served by the API server (its CRD not installed): start-up does
     * not fail, and the reconciler starts reconciling when the type appears.
     */
    boolean optional() default false;
}
