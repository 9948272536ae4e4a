package dev.kubeloop.sample.website;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;

/**
 * Serves each Website with nginx: a ConfigMap with the page, a Deployment mounting it and a
 * Service, all controlled by the Website (Kubernetes garbage-collects them with it). The three kinds
 * are watched as owned, so an edited or deleted one is repaired at once. Status carries
 * observedGeneration, the ready replicas, the URL and the Ready/Progressing/Degraded conditions.
 *
 * <p>A spec the CRD schema cannot reject (an image reference that does not parse) gets
 * {@code Ready=False, reason=InvalidSpec} and one Warning event, and is not retried: the next
 * reconcile comes with the next spec change. Cleanup (behind Kubeloop's finalizer) removes the
 * site from the namespace's {@code website-index} ConfigMap before the Website goes.
 */
@Reconciler(name = "website", workers = 2, owns = {ConfigMap.class, Deployment.class, Service.class})
public class WebsiteReconciler implements ResourceReconciler<Website>, Cleaner<Website> {

    static final String INVALID_SPEC = "InvalidSpec";

    private final Clock clock;

    public WebsiteReconciler() {
        this(Clock.systemUTC());
    }

    WebsiteReconciler(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Result reconcile(Website site, ReconcileContext<Website> context) {
        if (!ImageReference.isValid(site.getSpec().getImage())) {
            return invalidSpec(site, context, "spec.image \"" + site.getSpec().getImage()
                    + "\" is not a valid image reference");
        }
        try {
            report(site, context, "ConfigMap", WebsiteResources.contentName(site),
                    OwnedObjects.ensure(site, context, WebsiteResources.content(site)));
            report(site, context, "Deployment", site.getMetadata().getName(),
                    OwnedObjects.ensure(site, context, WebsiteResources.deployment(site)));
            report(site, context, "Service", site.getMetadata().getName(),
                    OwnedObjects.ensure(site, context, WebsiteResources.service(site)));
        } catch (OwnedObjects.ForeignObjectException e) {
            return blocked(site, context, e.getMessage());
        }
        WebsiteIndex.put(site, context);
        writeStatus(site, context, observed(site, context));
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
    private WebsiteStatus observed(Website site, ReconcileContext<Website> context) {
        int desired = site.getSpec().getReplicas() == null ? 1 : site.getSpec().getReplicas();
        int ready = context.owned(Deployment.class).stream()
                .filter(d -> d.getStatus() != null && d.getStatus().getReadyReplicas() != null)
                .mapToInt(d -> d.getStatus().getReadyReplicas()).findFirst().orElse(0);
        long generation = site.getMetadata().getGeneration() == null ? 0 : site.getMetadata().getGeneration();
        WebsiteStatus status = copyOf(site.getStatus());
        status.setObservedGeneration(generation);
        status.setReadyReplicas(ready);
        status.setUrl(WebsiteResources.url(site));
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
