/**
 * Leader election: its auto-configuration, which gives the controller manager a Lease-based
 * {@code WorkGate}, and {@code kubeloop.leader-election.*}. Ordered after sharding, which replaces it.
 */
package dev.kubeloop.autoconfigure.leader;
