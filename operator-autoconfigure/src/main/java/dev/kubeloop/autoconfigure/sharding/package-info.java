/**
 * Sharding: its auto-configuration, which gives the controller manager a ring of Leases as its
 * {@code WorkGate}, and {@code kubeloop.sharding.*}.
 */
package dev.kubeloop.autoconfigure.sharding;
