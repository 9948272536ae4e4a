/**
 * Kubernetes Events, written in the background ({@link dev.kubeloop.runtime.event.EventBroadcaster})
 * after client-go's correlator: a spam filter per object and aggregation of repeats into one Event
 * with a count. Recording never blocks or fails a reconcile. Runtime machinery: public only for
 * the other runtime packages.
 */
package dev.kubeloop.runtime.event;
