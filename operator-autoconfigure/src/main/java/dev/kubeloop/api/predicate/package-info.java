/**
 * Event predicates: filters that decide which informer events reach a reconciler's work queue
 * ({@link dev.kubeloop.api.predicate.EventPredicate}), and the built-ins
 * ({@link dev.kubeloop.api.predicate.Predicates}) to compose. Free of Spring and of the runtime.
 */
package dev.kubeloop.api.predicate;
