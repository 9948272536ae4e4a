/**
 * From informer events to work queue keys: {@link dev.kubeloop.runtime.handler.InformerEventAdapter}
 * (where an event enters a controller: predicate, then handler), and the handlers that map an event
 * to keys: {@link dev.kubeloop.runtime.handler.EnqueueRequestForObject} (a primary to its own key)
 * and {@link dev.kubeloop.runtime.handler.EnqueueRequestForOwner} (an owned object to its controller
 * owner's key). The initial list and resyncs are queued at low priority.
 *
 * <p>Runtime machinery: public only for the other runtime packages.
 */
package dev.kubeloop.runtime.handler;
