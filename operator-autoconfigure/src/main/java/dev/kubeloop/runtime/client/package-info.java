/**
 * The runtime's own writes and the object handling they need: a resourceVersion-locked JSON patch
 * ({@link dev.kubeloop.runtime.client.JsonPatch}), the status write
 * ({@link dev.kubeloop.runtime.client.StatusWriter}) and cheap copies
 * ({@link dev.kubeloop.runtime.client.ResourceCopies}). Serialization is fabric8's own, never an
 * application's mapper. Runtime machinery: public only for the other runtime packages.
 */
package dev.kubeloop.runtime.client;
