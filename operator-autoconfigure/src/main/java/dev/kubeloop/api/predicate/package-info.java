/**
 * Event predicates: filters that decide which informer events reach a reconciler's work queue
 * ({@link dev.kubeloop.api.predicate.EventPredicate}), and the built-ins
 * ({@link dev.kubeloop.api.predicate.Predicates}) to compose. Free of Spring and of the runtime.
 *
 * <p>Null-marked (JSpecify): nothing here takes or returns null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kubeloop.api.predicate;

import org.jspecify.annotations.NullMarked;
