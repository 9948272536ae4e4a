/**
 * Admission and conversion webhooks, as an operator author writes them: a
 * {@link dev.kubeloop.api.webhook.Validator} for the rules a CRD's schema cannot say, a
 * {@link dev.kubeloop.api.webhook.Defaulter} that fills in a copy of the object, and
 * {@link dev.kubeloop.api.webhook.SpokeConverter}s that convert each served version of a CRD to and
 * from its hub (storage) version. Declare them as beans; Kubeloop serves them over HTTPS
 * ({@code dev.kubeloop.webhook}) on paths derived from the type's group, version and kind.
 *
 * <p>Free of Spring and of the runtime, like {@code dev.kubeloop.api} (pinned by {@code LayeringTest}).
 *
 * <p>Null-marked (JSpecify): nothing here takes or returns null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kubeloop.api.webhook;

import org.jspecify.annotations.NullMarked;
