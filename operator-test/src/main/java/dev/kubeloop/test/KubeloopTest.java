package dev.kubeloop.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * A Spring Boot test of an operator: the application's reconcilers run with the Kubeloop
 * auto-configuration against an API server of their own, and a {@link KubeloopTestKit} bean waits
 * on what the runtime knows about its work.
 *
 * <p>The API server is, by default, an embedded fabric8 mock server in CRUD mode with
 * the CRDs applied ({@link #crds()}, by default all the build generated). When {@code KUBECONFIG} is set (or {@code kubeloop.test.cluster=kubeconfig}
 * as a system property or environment variable {@code KUBELOOP_TEST_CLUSTER}), it is that cluster
 * instead: the CRDs are applied, a fresh namespace is created for the test class, every reconciler
 * watches only that namespace ({@code kubeloop.namespaces}), and the namespace is deleted after
 * the class (kept when a test failed and {@link #keepNamespaceOnFailure()} is set).
 *
 * <p>Each test class gets its own application context and API server (the context is closed
 * after the class), so classes never see each other's objects.
 *
 * <pre>{@code
 * @KubeloopTest // every CRD in META-INF/fabric8; or crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml"
 * class WebsiteReconcilerTest {
 *     @Autowired KubernetesClient client;
 *     @Autowired KubeloopTestKit kit;
 *
 *     @Test void createsOwnedObjects() {
 *         Website site = client.resource(website("demo")).create();
 *         kit.awaitReconciled(site);
 *         assertThat(kit.owned(site, Deployment.class)).hasSize(1);
 *     }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ContextCustomizerFactories(KubeloopTestContextCustomizerFactory.class)
@ExtendWith(KubeloopTestExtension.class)
public @interface KubeloopTest {

    /**
     * CRD manifests to apply before the application starts: Spring resource locations
     * ({@code classpath:}, {@code file:}). Empty (the default): every CRD the build generated,
     * {@code META-INF/fabric8/*-v1.yml} on the test's class path ({@link dev.kubeloop.mock.GeneratedCrds}),
     * so that a project's second kind needs no edit in its tests; none when the build generated none.
     */
    String[] crds() default {};

    /** Properties of the application under test, as {@link SpringBootTest#properties()}. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default {};

    /** The configuration classes to load, as {@link SpringBootTest#classes()}; by default the {@code @SpringBootConfiguration} found from the test's package. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "classes")
    Class<?>[] classes() default {};

    /** The web environment, as {@link SpringBootTest#webEnvironment()}; none by default. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "webEnvironment")
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.NONE;

    /** Against a real cluster: keep the test namespace when a test of the class failed, to look at it. */
    boolean keepNamespaceOnFailure() default false;

    /**
     * Serve the application's validators, defaulters and converters. Off by default: the webhook
     * server is switched off ({@code kubeloop.webhook.enabled=false}), so an application with
     * webhooks needs no certificate in its tests; test webhooks in-process with
     * {@link KubeloopTestKit#webhooks()}, which works either way. On: the server runs on
     * {@code 127.0.0.1} (any free port) with a certificate of a throwaway CA
     * ({@link dev.kubeloop.test.webhook.TestCertificates}), and against a real cluster the kit
     * registers it for the test namespace and points the CRDs' conversion at it
     * ({@link dev.kubeloop.test.webhook.ClusterWebhooks}), so that requests take the full path
     * through the API server; the API server must be able to reach 127.0.0.1 of this machine.
     */
    boolean webhooks() default false;

    /**
     * Fail a test whose reconciles delete (pruning, {@code context.delete}) a kind their
     * {@code @Reconciler(deletes)} does not list: the RBAC {@code kubeloop:manifests} generates
     * from the code grants {@code delete} on the listed kinds only, so in a cluster that delete is
     * refused (403), while the embedded API server has no RBAC and lets it through. The test fails
     * at its first wait after the delete, or at its end, naming the controller, the kind and the fix.
     * Set false only when the operator's RBAC is written by hand rather than generated.
     */
    boolean failOnUndeclaredDeletes() default true;
}
