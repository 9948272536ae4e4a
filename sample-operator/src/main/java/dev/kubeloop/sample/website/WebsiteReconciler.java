package dev.kubeloop.sample.website;

import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.conditions.ConditionStatus;
import dev.kubeloop.api.conditions.Conditions;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.api.watch.Watches;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * Serves each Website with nginx: a ConfigMap with the page, a Deployment mounting it and a
 * Service, applied with server-side apply and controlled by the Website (Kubernetes
 * garbage-collects them with it). The kinds are watched as owned, so an edited or deleted one is
 * repaired at once; Kubeloop sends nothing when they are as applied, and records Created, Updated
 * and Repaired events. Status carries observedGeneration, the ready replicas, the URL and
 * the Ready/Progressing/Degraded conditions, applied with {@code applyStatus}.
 *
 * <p>TLS: {@code spec.tls.secretName} names a Secret the Website does not own; nginx mounts it. By
 * default the reconciler does not look at Secrets at all: Kubernetes RBAC cannot grant "metadata
 * only", and list/watch on Secrets would let the operator's ServiceAccount read every key in reach.
 * The site is then served over HTTPS with the Secret mounted by name: its pods start once the
 * Secret exists (the Deployment's readiness, watched as owned, says so in Ready), and a rotated
 * certificate reaches nginx at its next restart. With {@value #WATCH_TLS_SECRETS}{@code =true} (the
 * chart's {@code tlsSecrets.watch}, which then grants list/watch on Secrets where the operator
 * works) it watches Secrets metadata-only (it never reads key material) and finds the Websites a
 * Secret's change concerns through the index {@value #TLS_SECRET_INDEX}, so a created, rotated or
 * deleted certificate reconciles exactly the Websites that name it. While the Secret is missing, the
 * site is served over HTTP only and says so in its conditions; the ConfigMap with nginx's HTTPS
 * server block, applied only while there is a certificate, is then pruned.
 *
 * <p>A spec the CRD schema cannot reject (an image reference that does not parse, a name that
 * cannot name a Service) gets {@code Ready=False, reason=InvalidSpec} and one Warning event, and is
 * not retried: the next reconcile comes with the next spec change. An object the API server
 * refuses anyway gets {@code reason=ObjectRejected}; an object that exists under the name and is
 * not this Website's (a user's Service {@code payments} when the Website is named so) gets
 * {@code reason=ForeignObject}, naming it, and is left alone (Kubeloop logs either once per
 * generation, records a Warning event, and retries with backoff). Cleanup (behind Kubeloop's
 * finalizer) removes the site from the namespace's {@code website-index} ConfigMap.
 */
@Reconciler(name = "website", workers = 2, owns = {ConfigMap.class, Deployment.class, Service.class},
        deletes = ConfigMap.class) // pruning deletes the <name>-tls ConfigMap once a site stops serving HTTPS
public class WebsiteReconciler implements ResourceReconciler<Website>, Cleaner<Website>, WatchConfigurer<Website> {

    static final String READY = "Ready";
    static final String PROGRESSING = "Progressing";
    static final String DEGRADED = "Degraded";
    static final String INVALID_SPEC = "InvalidSpec";
    static final String OBJECT_REJECTED = "ObjectRejected";
    static final String FOREIGN_OBJECT = "ForeignObject";
    static final String TLS_SECRET_NOT_FOUND = "TLSSecretNotFound";
    /** Websites by the name of the TLS Secret they refer to. */
    static final String TLS_SECRET_INDEX = "spec.tls.secretName";
    /** The property that turns the metadata-only watch of TLS Secrets on (off by default). */
    static final String WATCH_TLS_SECRETS = "sample.tls-secrets.watch";

    private final Clock clock;
    private final boolean watchTlsSecrets;

    @Autowired
    public WebsiteReconciler(@Value("${" + WATCH_TLS_SECRETS + ":false}") boolean watchTlsSecrets) {
        this(Clock.systemUTC(), watchTlsSecrets);
    }

    WebsiteReconciler(Clock clock, boolean watchTlsSecrets) {
        this.clock = clock;
        this.watchTlsSecrets = watchTlsSecrets;
    }

    @Override
    public void configureWatches(Watches<Website> watches) {
        if (!watchTlsSecrets) {
            return; // no Secret informer, so no list/watch on Secrets to grant
        }
        watches.index(Website.class, TLS_SECRET_INDEX, site -> {
            String secret = WebsiteResources.tlsSecretName(site);
            return secret == null ? List.of() : List.of(secret);
        }).watch(Watch.of(Secret.class).metadataOnly().mapper(Mappers.byIndex(Website.class, TLS_SECRET_INDEX)));
    }

    @Override
    public Result reconcile(Website site, ReconcileContext<Website> context) {
        Optional<String> problem = WebsiteValidation.problem(site);
        if (problem.isPresent()) {
            return notServable(site, context, INVALID_SPEC, problem.get());
        }
        String tlsSecretName = WebsiteResources.tlsSecretName(site);
        HasMetadata tlsSecret = tlsSecretName == null ? null : watchTlsSecrets
                ? context.cached(Secret.class, ObjectKey.of(site.getMetadata().getNamespace(), tlsSecretName)).orElse(null)
                : unseen(tlsSecretName);
        boolean tls = tlsSecret != null;
        // a refusal (a foreign object in the way, an invalid object) goes into status through errorStatus, below
        context.apply(WebsiteResources.content(site));
        if (tls) {
            context.apply(WebsiteResources.tlsConfig(site)); // not applied without TLS: then pruned
        }
        Deployment deployment = context.apply(WebsiteResources.deployment(site, tlsSecret));
        keepEarlierPagesWhileRollingOut(site, deployment, context);
        context.apply(WebsiteResources.service(site, tls));
        String url = WebsiteResources.url(site, tls);
        WebsiteIndex.put(site, url, context);
        String tlsProblem = tlsSecretName == null || tls ? null : "Secret " + tlsSecretName + " (spec.tls.secretName) "
                + "not found in namespace " + site.getMetadata().getNamespace() + "; serving HTTP only until it exists";
        observe(site, deployment, url, tlsProblem);
        // the Secret's absence is said once, in a Warning event; its creation reconciles the site, through the watch
        if (tlsProblem != null && condition(site, DEGRADED, true, TLS_SECRET_NOT_FOUND, tlsProblem)) {
            context.events().warning(site, TLS_SECRET_NOT_FOUND, tlsProblem);
        } else if (tlsProblem == null) {
            condition(site, DEGRADED, false, "AsExpected", "Owned objects are in place");
        }
        context.applyStatus(site);
        return Result.done();
    }

    /**
     * A write the API server refused because of the object (a foreign object by the name this
     * Website needs: a Service or ConfigMap of someone else's; an invalid object) says so in the
     * Ready and Progressing conditions; Kubeloop applies that status once per distinct refusal,
     * reports the refusal once per generation and retries with backoff. Other errors leave the
     * status as it is.
     */
    @Override
    public Optional<Website> errorStatus(Website site, ReconcileContext<Website> context, Exception error) {
        Optional<ApiRefusal> refusal = ApiRefusal.of(error).filter(ApiRefusal::invalid);
        if (refusal.isEmpty()) {
            return Optional.empty();
        }
        setNotServable(site, refusal.get().foreign() ? FOREIGN_OBJECT : OBJECT_REJECTED, refusal.get().describe());
        return Optional.of(site);
    }

    /**
     * Removes the site's index entry. A site whose name cannot name its objects was never served
     * and wrote no entry (names are immutable): nothing to remove, and no write that could fail and
     * hold the Website for ever. One whose spec turned invalid later may have one: it is removed.
     */
    @Override
    public Result cleanup(Website site, ReconcileContext<Website> context) {
        if (WebsiteValidation.nameProblem(site.getMetadata().getName()).isEmpty()) {
            WebsiteIndex.remove(site, context);
        }
        return Result.done();
    }

    /**
     * The earlier pages' ConfigMaps stay (applied as they are, so not pruned) while the Deployment
     * still runs pods of an earlier template, which mount them; the first reconcile after the
     * rollout (queued by the Deployment's status) applies only the current page, and the rest are
     * pruned. Only what the cache holds of this site's own ConfigMaps is read.
     */
    private static void keepEarlierPagesWhileRollingOut(Website site, Deployment deployment,
            ReconcileContext<Website> context) {
        if (WebsiteResources.rolledOut(deployment)) {
            return;
        }
        String current = WebsiteResources.contentName(site);
        for (ConfigMap owned : context.owned(ConfigMap.class)) {
            String name = owned.getMetadata().getName();
            if (!name.equals(current) && WebsiteResources.isPage(site, name)) {
                context.apply(WebsiteResources.earlierPage(site, owned));
            }
        }
    }

    /** A Secret known by name only (not watched): assumed to exist; nginx's pods wait for it. */
    private static HasMetadata unseen(String name) {
        return new SecretBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    /**
     * Status from what the apply returned: the Deployment's ready replicas decide Ready; Progressing
     * also stays True while the Deployment still runs pods of an earlier template (a new page rolls
     * out, with enough ready pods all along); a missing TLS Secret ({@code tlsProblem}) keeps the site
     * from being Ready.
     */
    private void observe(Website site, Deployment deployment, String url, String tlsProblem) {
        int desired = site.getSpec().getReplicas() == null ? 1 : site.getSpec().getReplicas();
        int ready = deployment.getStatus() == null || deployment.getStatus().getReadyReplicas() == null ? 0
                : deployment.getStatus().getReadyReplicas();
        WebsiteStatus status = statusOf(site);
        status.setReadyReplicas(ready);
        status.setUrl(url);
        boolean available = ready >= desired;
        String progress = ready + "/" + desired + " replicas ready";
        if (tlsProblem != null) {
            condition(site, READY, false, TLS_SECRET_NOT_FOUND, tlsProblem);
        } else {
            condition(site, READY, available, desired == 0 ? "ScaledToZero" : available ? "Available"
                    : "ReplicasNotReady", progress);
        }
        boolean complete = available && WebsiteResources.rolledOut(deployment);
        condition(site, PROGRESSING, !complete, complete ? "Complete" : "RollingOut",
                available && !complete ? progress + ", pods of an earlier template still running" : progress);
    }

    /**
     * The site cannot be served until its spec changes: say so in status and, once per generation,
     * in a Warning event; do not retry (a retry would fail the same way).
     */
    private Result notServable(Website site, ReconcileContext<Website> context, String reason, String message) {
        if (setNotServable(site, reason, message)) {
            context.events().warning(site, reason, message);
            context.log().warn("Website cannot be served: {}", message);
        }
        context.applyStatus(site);
        return Result.done();
    }

    /** Sets the not-servable conditions; true if they changed (a new reason, message or generation). */
    private boolean setNotServable(Website site, String reason, String message) {
        boolean changed = condition(site, READY, false, reason, message);
        changed |= condition(site, PROGRESSING, false, reason, message);
        return condition(site, DEGRADED, true, reason, message) || changed;
    }

    /** Sets a condition for the site's generation; lastTransitionTime moves only when its status flips. */
    private boolean condition(Website site, String type, boolean value, String reason, String message) {
        Long generation = site.getMetadata().getGeneration();
        WebsiteStatus status = statusOf(site);
        status.setObservedGeneration(generation);
        return Conditions.set(status.getConditions(), type, ConditionStatus.of(value), reason, message, generation,
                Instant.now(clock));
    }

    private static WebsiteStatus statusOf(Website site) {
        if (site.getStatus() == null) {
            site.setStatus(new WebsiteStatus());
        }
        if (site.getStatus().getConditions() == null) {
            site.getStatus().setConditions(new ArrayList<>());
        }
        return site.getStatus();
    }
}
