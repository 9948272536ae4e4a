package dev.kubeloop.api.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Implemented by a reconciler, next to {@code ResourceReconciler<T>}, to declare what it watches
 * beyond what {@code @Reconciler} can say (annotations cannot carry functions): watches of related
 * types with mappers, indexes, predicates, optional types.
 *
 * <pre>{@code
 * @Reconciler(owns = {ConfigMap.class, Deployment.class})
 * class WebsiteReconciler implements ResourceReconciler<Website>, WatchConfigurer<Website> {
 *     public void configureWatches(Watches<Website> watches) {
 *         watches.index(Website.class, "spec.tls.secretName", site -> site.getSpec().getTls() == null
 *                         ? List.of() : List.of(site.getSpec().getTls().getSecretName()))
 *                 .watch(Watch.of(Secret.class).metadataOnly()
 *                         .mapper(Mappers.byIndex(Website.class, "spec.tls.secretName")));
 *     }
 *     ...
 * }
 * }</pre>
 *
 * Called once at start-up, before anything talks to the API server.
 *
 * @param <T> the primary type, the reconciler's
 */
@FunctionalInterface
public interface WatchConfigurer<T extends HasMetadata> {

    void configureWatches(Watches<T> watches);
}
