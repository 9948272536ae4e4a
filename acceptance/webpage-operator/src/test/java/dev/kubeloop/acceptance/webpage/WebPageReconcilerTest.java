package dev.kubeloop.acceptance.webpage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The original's behaviour (WebPageOperatorAbstractTest, and what WebPageReconciler and Utils do)
 * against the kit's API server: embedded, or the real one when KUBECONFIG is set. Neither runs a
 * kubelet, a garbage collector or an ingress controller, so where the original's e2e test fetched
 * the page through a port-forward or waited for the Deployment to go away, these assert what the
 * operator wrote: the ConfigMap the page is served from, and owner references to the WebPage.
 */
@KubeloopTest(crds = "classpath:" + WebPage.CRD, properties = "operator.embedded-api-server=off")
class WebPageReconcilerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String TITLE1 = "Hello Operator World";
    private static final String TITLE2 = "Hello Operator World Title 2";

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Test
    void aNewWebPageIsServedFromItsConfigMapAndIsGood() {
        WebPage webPage = client.resource(webPage("test-page", html(TITLE1))).create();

        WebPage good = awaitGood(webPage);
        assertThat(good.getStatus().getHtmlConfigMap()).isEqualTo("test-page-html");
        assertThat(good.getStatus().getErrorMessage()).isNull();

        ConfigMap configMap = get(ConfigMap.class, "test-page-html");
        assertThat(configMap.getData().get("index.html")).contains(TITLE1);
        Deployment deployment = get(Deployment.class, "test-page");
        assertThat(deployment.getSpec().getSelector().getMatchLabels()).containsEntry("app", "test-page");
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes()).singleElement()
                .satisfies(volume -> assertThat(volume.getConfigMap().getName()).isEqualTo("test-page-html"));
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                .satisfies(nginx -> assertThat(nginx.getImage()).isEqualTo("nginx:1.17.0"));
        Service service = get(Service.class, "test-page");
        assertThat(service.getSpec().getType()).isEqualTo("NodePort");
        assertThat(service.getSpec().getSelector()).containsEntry("app", "test-page");
        assertThat(get(Ingress.class, "test-page")).isNull();
        // what lets Kubernetes delete them with the page (the original's e2e test waits for that)
        for (HasMetadata child : new HasMetadata[] {configMap, deployment, service}) {
            assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
                assertThat(owner.getUid()).isEqualTo(webPage.getMetadata().getUid());
                assertThat(owner.getController()).isTrue();
            });
        }
    }

    @Test
    void aChangedPageUpdatesTheConfigMapAndRestartsThePods() {
        WebPage webPage = client.resource(webPage("retitled", html(TITLE1))).create();
        awaitGood(webPage);
        String before = htmlDigest("retitled");

        edit("retitled", page -> {
            page.getSpec().setHtml(html(TITLE2));
            return page;
        });

        kit.await("the ConfigMap holds the new page", TIMEOUT,
                () -> get(ConfigMap.class, "retitled-html").getData().get("index.html").contains(TITLE2));
        // a new Pod template: the Deployment controller replaces the Pods (neither test server runs one), so nginx
        // serves the new page; the original deleted them by label, which the generated RBAC does not allow
        kit.await("the Deployment's Pod template changed with the html", TIMEOUT,
                () -> before != null && !before.equals(htmlDigest("retitled")));
    }

    @Test
    void anExposedPageGetsAnIngressThatGoesWhenItIsNoLongerExposed() {
        WebPage webPage = webPage("exposed", html(TITLE1));
        webPage.getSpec().setExposed(true);
        awaitGood(client.resource(webPage).create());

        kit.await("an Ingress to the page's Service", TIMEOUT, () -> get(Ingress.class, "exposed").getSpec()
                .getRules().get(0).getHttp().getPaths().get(0).getBackend().getService().getName().equals("exposed"));

        edit("exposed", page -> {
            page.getSpec().setExposed(false);
            return page;
        });

        kit.await("the Ingress deleted", TIMEOUT, () -> get(Ingress.class, "exposed") == null);
        assertThat(get(Service.class, "exposed")).isNotNull();
    }

    @Test
    void invalidHtmlIsReportedInTheStatus() {
        WebPage webPage = client.resource(webPage("invalid", "<p>not a page</p>")).create();

        kit.await("status.errorMessage says the html is invalid", TIMEOUT,
                () -> "Invalid html.".equals(errorMessage(webPage)));
        assertThat(get(ConfigMap.class, "invalid-html")).isNull();
    }

    @Test
    void aFailingReconcilePutsTheErrorInTheStatusUntilThePageIsFixed() {
        WebPage webPage = client.resource(webPage("failing", html("an error, on purpose"))).create();

        kit.await("status.errorMessage carries the exception's message", TIMEOUT,
                () -> "Error: Simulating error".equals(errorMessage(webPage)));
        assertThat(get(ConfigMap.class, "failing-html")).isNull();

        edit("failing", page -> {
            page.getSpec().setHtml(html(TITLE1));
            return page;
        });

        WebPage good = awaitGood(webPage);
        assertThat(good.getStatus().getErrorMessage()).isNull();
    }

    /** Waits for {@code status.areWeGood} (the original's test waits for the same) with no error. */
    private WebPage awaitGood(WebPage webPage) {
        kit.await("status.areWeGood", TIMEOUT, () -> {
            WebPageStatus status = client.resource(webPage).get().getStatus();
            return status != null && Boolean.TRUE.equals(status.getAreWeGood()) && status.getErrorMessage() == null;
        });
        return client.resource(webPage).get();
    }

    private String errorMessage(WebPage webPage) {
        WebPageStatus status = client.resource(webPage).get().getStatus();
        return status == null ? null : status.getErrorMessage();
    }

    private void edit(String name, UnaryOperator<WebPage> change) {
        client.resources(WebPage.class).inNamespace(kit.namespace()).withName(name).edit(change);
    }

    private String htmlDigest(String deployment) {
        return get(Deployment.class, deployment).getSpec().getTemplate().getMetadata().getAnnotations()
                .get(WebPageChildren.HTML_DIGEST);
    }

    private <R extends HasMetadata> R get(Class<R> type, String name) {
        return client.resources(type).inNamespace(kit.namespace()).withName(name).get();
    }

    private static String html(String title) {
        return "<html>\n  <head>\n    <title>" + title + "</title>\n  </head>\n  <body>\n    Hello World!\n"
                + "  </body>\n</html>";
    }

    private WebPage webPage(String name, String html) {
        WebPage webPage = new WebPage();
        webPage.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(kit.namespace()).build());
        webPage.getSpec().setHtml(html);
        return webPage;
    }
}
