package dev.kubeloop.acceptance.webpage;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import java.util.Locale;

/**
 * java-operator-sdk's low-level WebPageReconciler (sample-operators/webpage) on Kubeloop: a WebPage
 * is served by a ConfigMap holding its html, an nginx Deployment mounting it, a Service, and an
 * Ingress while {@code spec.exposed}; its status says whether all is well or what went wrong.
 *
 * <p>What the port changes and why (docs/acceptance.md has the whole list):
 * <ul>
 *   <li>The original's four informer event sources, its {@code createOrUpdate} with a hand-written
 *       {@code match} per kind, and the server-side applies become {@code owns} and one
 *       {@code context.apply} each: apply sends nothing when nothing changed.
 *   <li>The Ingress of a page no longer exposed is not deleted by hand: it is not applied, so
 *       Kubeloop prunes it (an owned object a reconcile stops applying is deleted). Hence
 *       {@code deletes = Ingress.class}: the RBAC generated from the code grants delete on the
 *       declared kinds only (without it, the Role refuses the prune with 403 in a cluster, and the
 *       test kit fails the tests).
 *   <li>The Pods are not deleted by label when the html changes, as the original does: the Pod
 *       template carries a digest of the html ({@link WebPageChildren#HTML_DIGEST}), so the
 *       Deployment rolls them. The label-selected delete needs {@code deletecollection} on Pods,
 *       which the RBAC generated from the code does not grant (the reconcile failed with 403 in a
 *       cluster; the embedded API server has no RBAC).
 *   <li>JOSDK's {@code updateErrorStatus} hook has no counterpart: the catch below writes the error
 *       into the status and rethrows, so the runtime retries with backoff.
 * </ul>
 * Stateless.
 */
@Reconciler(name = "webpage", owns = {ConfigMap.class, Deployment.class, Service.class, Ingress.class},
        deletes = Ingress.class)
public class WebPageReconciler implements ResourceReconciler<WebPage> {

    @Override
    public Result reconcile(WebPage webPage, ReconcileContext<WebPage> context) throws Exception {
        if (webPage.getStatus() == null) {
            webPage.setStatus(new WebPageStatus());
        }
        try {
            return serve(webPage, context);
        } catch (Exception e) {
            // the original's updateErrorStatus (Utils.handleError): the message into the status, then the retry
            webPage.getStatus().setErrorMessage("Error: " + e.getMessage());
            try {
                context.applyStatus(webPage);
            } catch (RuntimeException statusFailed) {
                e.addSuppressed(statusFailed);
            }
            throw e;
        }
    }

    private Result serve(WebPage webPage, ReconcileContext<WebPage> context) throws ErrorSimulationException {
        String html = webPage.getSpec().getHtml();
        if (html.contains("error")) {
            throw new ErrorSimulationException("Simulating error"); // the original's demo of a failing reconcile
        }
        if (!isValidHtml(html)) {
            // before any apply: a reconcile that applies nothing prunes nothing, so the page keeps being served
            webPage.getStatus().setErrorMessage("Invalid html.");
            context.applyStatus(webPage);
            return Result.done();
        }

        ConfigMap desired = WebPageChildren.configMap(webPage);
        context.apply(desired);
        context.apply(WebPageChildren.deployment(webPage));
        context.apply(WebPageChildren.service(webPage));
        if (Boolean.TRUE.equals(webPage.getSpec().getExposed())) {
            context.apply(WebPageChildren.ingress(webPage));
        }

        WebPageStatus status = new WebPageStatus();
        status.setHtmlConfigMap(desired.getMetadata().getName());
        status.setAreWeGood(true);
        webPage.setStatus(status); // no errorMessage: applying without it removes an earlier one
        context.applyStatus(webPage);
        return Result.done();
    }

    /** The original's "very dummy html validation". */
    static boolean isValidHtml(String html) {
        String lower = html.toLowerCase(Locale.ROOT);
        return lower.contains("<html>") && lower.contains("</html>");
    }
}
