/**
 * Informers and their caches: one fabric8 {@code SharedIndexInformer} per (type, namespace,
 * label selector), shared by every controller that asks for it ({@link
 * dev.kubeloop.runtime.cache.InformerRegistry}), and read-only views over them ({@link
 * dev.kubeloop.runtime.cache.ResourceCache}) with indexes ({@link dev.kubeloop.runtime.cache.OwnerIndex}).
 * Informers drop managedFields before caching, survive objects their type cannot read, count
 * their re-lists, report when their list/watch fails and recovers ({@link
 * dev.kubeloop.runtime.cache.ListWatchMonitor}), and report when they stop for good.
 *
 * <p>Knows nothing of work queues or controllers: it delivers fabric8 events to whatever
 * handlers were registered. Runtime machinery: public only for the other runtime packages.
 */
package dev.kubeloop.runtime.cache;
