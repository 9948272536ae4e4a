package dev.kubeloop.api.watch;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.predicate.EventPredicate;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * What one reconciler watches besides its primary type: owned types, watches of related types
 * with their mappers, indexes on any of its caches, a filter for its primary's events, and whether
 * its primary type is optional. Given to {@link WatchConfigurer#configureWatches} once, at start-up;
 * everything declared here is checked before anything talks to the API server, and a
 * misdeclaration fails start-up naming the reconciler and the fix.
 *
 * @param <T> the reconciler's primary type
 */
public interface Watches<T extends HasMetadata> {

    /**
     * Objects of {@code type} this reconciler creates and controls (as {@code @Reconciler(owns)}):
     * a change to one whose controller owner reference points at a primary reconciles it.
     */
    Watches<T> owns(Class<? extends HasMetadata> type);

    /**
     * As {@link #owns(Class)}, caching only the owned-kind objects whose labels match
     * {@code labelSelector} (filtered by the API server, as JOSDK's samples cache {@code managed=true}
     * only): without it the owned cache holds every object of the kind in the reconciler's
     * namespaces, related or not. Objects outside the selector do not trigger reconciles, and
     * {@code context.owned()} and pruning do not see them; the children the reconciler makes must
     * carry the labels. Overrides an unfiltered {@code @Reconciler(owns)} of the same type.
     */
    Watches<T> owns(Class<? extends HasMetadata> type, String labelSelector);

    /**
     * As {@link #owns(Class)}, caching only the objects this reconciler applied: those labelled
     * {@code kubeloop.dev/applied-by=<reconciler name>}, which every owned {@code context.apply}
     * writes. Children made otherwise ({@code client().create()}, another tool, a version of the
     * operator before the label) are not cached until an owned apply labels them: the first
     * reconcile's apply finds such an object by reading the API server, adopts it as apply always
     * does, and labels it.
     */
    Watches<T> ownsApplied(Class<? extends HasMetadata> type);

    /** Watches a related type; see {@link Watch}. */
    Watches<T> watch(Watch<?> watch);

    /**
     * Declares the index {@code name} on this reconciler's cache of {@code type} (its primary, an
     * owned or a watched type): {@code function} gives the values each object is found under.
     * Read it with {@link CacheReader#byIndex} (from a mapper, or a reconcile's
     * {@code context.caches()}), or map through it with {@link Mappers#byIndex}.
     */
    <R extends HasMetadata> Watches<T> index(Class<R> type, String name, IndexFunction<? super R> function);

    /**
     * Filters the primary type's events, in addition to {@code generationAware} (which
     * {@code @Reconciler(generationAware = false)} switches off).
     */
    Watches<T> primaryFilter(EventPredicate<? super T> predicate);

    /**
     * The primary type may not be served (its CRD not installed): start-up does not fail, the
     * reconciler starts reconciling when the type appears and stops when it goes.
     */
    Watches<T> optionalPrimary();
}
