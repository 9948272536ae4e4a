package dev.kubeloop.sample.website;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.api.watch.Watches;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves each Website with nginx: a ConfigMap with the page, a Deployment mounting it and a
 * Service, all controlled by the Website (Kubernetes garbage-collects them with it). The three kinds
 * are watched as owned, so an edited or deleted one is repaired at once. Status carries
 * observedGeneration, the ready replicas, the URL and the Ready/Progressing/Degraded conditions.
 *
 * <p>TLS: {@code spec.tls.secretName} names a Secret the Website does not own. The reconciler
 * watches Secrets metadata-only (it never reads key material; nginx mounts the Secret) and finds
 * the Websites a Secret's change concerns through the index {@value #TLS_SECRET_INDEX}, so a
 * created, rotated or deleted certificate reconciles exactly the Websites that name it. While the
 * Secret is missing, the site is served over HTTP only and says so in its conditions.
 *
 * <p>A spec the CRD schema cannot reject (an image reference that does not parse) gets
 * {@code Ready=False, reason=InvalidSpec} and one Warning event, and is not retried: the next
 * reconcile comes with the next spec change. Cleanup (behind Kubeloop's finalizer) removes the
 * site from the namespace's {@code website-index} ConfigMap before the Website goes.
 */
@Reconciler(name = "website", workers = 2, owns = {ConfigMap.class, Deployment.class, Service.class})
public class WebsiteReconciler implements ResourceReconciler<Website>, Cleaner<Website>, WatchConfigurer<Website> {

    static final String INVALID_SPEC = "InvalidSpec";
    static final String TLS_SECRET_NOT_FOUND = "TLSSecretNotFound";
    /** Websites by the name of the TLS Secret they refer to. */
    static final String TLS_SECRET_INDEX = "spec.tls.secretName";

    private final Clock clock;

    public WebsiteReconciler() {
        this(Clock.systemUTC());
    }

    WebsiteReconciler(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void configureWatches(Watches<Website> watches) {
        watches.index(Website.class, TLS_SECRET_INDEX, site -> {
            String secret = WebsiteResources.tlsSecretName(site);
            return secret == null ? List.of() : List.of(secret);
        }).watch(Watch.of(Secret.class).metadataOnly().mapper(Mappers.byIndex(Website.class, TLS_SECRET_INDEX)));
    }

    @Override
    public Result reconcile(Website site, ReconcileContext<Website> context) {
        if (!ImageReference.isValid(site.getSpec().getImage())) {
            return invalidSpec(site, context, "spec.image \"" + site.getSpec().getImage()
                    + "\" is not a valid image reference");
        }
        String tlsSecretName = WebsiteResources.tlsSecretName(site);
        Secret tlsSecret = tlsSecretName == null ? null
                : context.cached(Secret.class, ObjectKey.of(site.getMetadata().getNamespace(), tlsSecretName))
                        .orElse(null);
        boolean tls = tlsSecret != null;
        try {
            report(site, context, "ConfigMap", WebsiteResources.contentName(site),
                    OwnedObjects.ensure(site, context, WebsiteResources.content(site, tls)));
            report(site, context, "Deployment", site.getMetadata().getName(),
                    OwnedObjects.ensure(site, context, WebsiteResources.deployment(site, tlsSecret)));
            report(site, context, "Service", site.getMetadata().getName(),
                    OwnedObjects.ensure(site, context, WebsiteResources.service(site, tls)));
        } catch (OwnedObjects.ForeignObjectException e) {
            return blocked(site, context, e.getMessage());
        }
        String url = WebsiteResources.url(site, tls);
        WebsiteIndex.put(site, url, context);
        WebsiteStatus status = observed(site, context, url);
        if (tlsSecretName != null && !tls) {
            tlsSecretMissing(site, context, status, tlsSecretName);
        }
        writeStatus(site, context, status);
        return Result.done();
    }

    @Override
    public Result cleanup(Website site, ReconcileContext<Website> context) {
        if (WebsiteIndex.remove(site, context)) {
            context.log().info("Removed {} from {}", site.getMetadata().getName(), WebsiteIndex.NAME);
        }
        return Result.done();
    }

    /** Status from what the caches show: the Deployment's ready replicas decide Ready and Progressing. */
    private WebsiteStatus observed(Website site, ReconcileContext<Website> context, String url) {
        int desired = site.getSpec().getReplicas() == null ? 1 : site.getSpec().getReplicas();
        int ready = context.owned(Deployment.class).stream()
                .filter(d -> d.getStatus() != null && d.getStatus().getReadyReplicas() != null)
                .mapToInt(d -> d.getStatus().getReadyReplicas()).findFirst().orElse(0);
        long generation = site.getMetadata().getGeneration() == null ? 0 : site.getMetadata().getGeneration();
        WebsiteStatus status = copyOf(site.getStatus());
        status.setObservedGeneration(generation);
        status.setReadyReplicas(ready);
        status.setUrl(url);
        Instant now = clock.instant();
        boolean available = ready >= desired;
        String progress = ready + "/" + desired + " replicas ready";
        Conditions.set(status, Conditions.READY, available, desired == 0 ? "ScaledToZero" : available ? "Available"
                : "ReplicasNotReady", progress, generation, now);
        Conditions.set(status, Conditions.PROGRESSING, !available, available ? "Complete" : "RollingOut", progress,
                generation, now);
        Conditions.set(status, Conditions.DEGRADED, false, "AsExpected", "Owned objects are in place", generation,
                now);
        return status;
    }

    /**
     * The Secret the spec names does not exist (yet): the site is served over HTTP only, it is not
     * Ready, and says why, once in a Warning event. No retry: creating the Secret reconciles it,
     * through the watch.
     */
    private void tlsSecretMissing(Website site, ReconcileContext<Website> context, WebsiteStatus status,
            String secretName) {
        long generation = site.getMetadata().getGeneration() == null ? 0 : site.getMetadata().getGeneration();
        String message = "Secret " + secretName + " (spec.tls.secretName) not found in namespace "
                + site.getMetadata().getNamespace() + "; serving HTTP only until it exists";
        boolean alreadyReported = site.getStatus() != null && site.getStatus().condition(Conditions.DEGRADED)
                .filter(c -> TLS_SECRET_NOT_FOUND.equals(c.getReason()) && message.equals(c.getMessage())).isPresent();
        Instant now = clock.instant();
        Conditions.set(status, Conditions.READY, false, TLS_SECRET_NOT_FOUND, message, generation, now);
        Conditions.set(status, Conditions.DEGRADED, true, TLS_SECRET_NOT_FOUND, message, generation, now);
        if (!alreadyReported) {
            context.events().warning(site, TLS_SECRET_NOT_FOUND, message);
        }
    }

    private Result invalidSpec(Website site, ReconcileContext<Website> context, String message) {
        return notServable(site, context, INVALID_SPEC, message);
    }

    private Result blocked(Website site, ReconcileContext<Website> context, String message) {
        return notServable(site, context, "ResourceConflict", message);
    }

    /**
     * The site cannot be served until its spec (or the blocking object) changes: say so in status
     * and once in a Warning event, and do not retry (a retry would fail the same way).
     */
    private Result notServable(Website site, ReconcileContext<Website> context, String reason, String message) {
        long generation = site.getMetadata().getGeneration() == null ? 0 : site.getMetadata().getGeneration();
        WebsiteStatus status = copyOf(site.getStatus());
        boolean alreadyReported = status.condition(Conditions.READY)
                .filter(c -> reason.equals(c.getReason()) && message.equals(c.getMessage())
                        && Long.valueOf(generation).equals(c.getObservedGeneration()))
                .isPresent();
        status.setObservedGeneration(generation);
        Instant now = clock.instant();
        Conditions.set(status, Conditions.READY, false, reason, message, generation, now);
        Conditions.set(status, Conditions.PROGRESSING, false, reason, message, generation, now);
        Conditions.set(status, Conditions.DEGRADED, true, reason, message, generation, now);
        writeStatus(site, context, status);
        if (!alreadyReported) {
            context.events().warning(site, reason, message);
            context.log().warn("Website cannot be served: {}", message);
        }
        return Result.done();
    }

    private static void writeStatus(Website site, ReconcileContext<Website> context, WebsiteStatus status) {
        if (!status.equals(site.getStatus())) {
            site.setStatus(status);
            context.updateStatus(site);
        }
    }

    private static void report(Website site, ReconcileContext<Website> context, String kind, String name,
            OwnedObjects.Change change) {
        switch (change) {
            case CREATED -> context.events().normal(site, "Created", "Created " + kind + " " + name);
            case REPAIRED -> context.events().normal(site, "Repaired", kind + " " + name
                    + " had drifted from the Website's spec and was updated");
            case NONE -> { }
        }
    }

    private static WebsiteStatus copyOf(WebsiteStatus status) {
        WebsiteStatus copy = new WebsiteStatus();
        if (status != null) {
            copy.setObservedGeneration(status.getObservedGeneration());
            copy.setReadyReplicas(status.getReadyReplicas());
            copy.setUrl(status.getUrl());
            copy.setConditions(status.getConditions() == null ? new ArrayList<>()
                    : new ArrayList<>(status.getConditions()));
        }
        return copy;
    }
}
