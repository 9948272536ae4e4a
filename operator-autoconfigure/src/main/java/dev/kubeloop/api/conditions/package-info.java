/**
 * Status conditions after the Kubernetes API conventions ({@link dev.kubeloop.api.conditions.Conditions}).
 * Free of Spring and of the runtime.
 */
package dev.kubeloop.api.conditions;
