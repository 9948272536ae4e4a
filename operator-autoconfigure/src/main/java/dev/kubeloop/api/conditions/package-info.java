/**
 * Status conditions after the Kubernetes API conventions ({@link dev.kubeloop.api.conditions.Conditions}).
 * Free of Spring and of the runtime.
 *
 * <p>Null-marked (JSpecify): nothing here takes or returns null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kubeloop.api.conditions;

import org.jspecify.annotations.NullMarked;
