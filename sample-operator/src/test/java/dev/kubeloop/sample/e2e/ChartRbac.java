package dev.kubeloop.sample.e2e;

import dev.kubeloop.sample.chart.RenderedChart;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The operator's identity exactly as the Helm chart grants it, on a real API server: the chart is
 * rendered by a real Helm engine ({@link RenderedChart}) for a release in the test namespace, and
 * its ServiceAccount, Roles, ClusterRoles and bindings are created unchanged. The token comes from
 * the TokenRequest API ({@code serviceaccounts/<name>/token}): the API server signs it itself, so
 * this works on any cluster, also on {@code scripts/local-apiserver.sh}'s, which runs no token
 * controller. Every request the operator's client gets 403 Forbidden for is recorded.
 *
 * <p>Cluster-scoped objects (ClusterRole, ClusterRoleBinding) are deleted on {@link #close()};
 * namespaced ones go with the test namespace.
 */
final class ChartRbac implements AutoCloseable {

    private static final Set<String> RBAC_KINDS = Set.of("ServiceAccount", "Role", "RoleBinding", "ClusterRole",
            "ClusterRoleBinding");

    private final KubernetesClient admin;
    private final String namespace;
    private final List<HasMetadata> created;
    private final String serviceAccount;
    private final List<String> forbidden = new CopyOnWriteArrayList<>();

    private ChartRbac(KubernetesClient admin, String namespace, List<HasMetadata> created, String serviceAccount) {
        this.admin = admin;
        this.namespace = namespace;
        this.created = created;
        this.serviceAccount = serviceAccount;
    }

    /**
     * Renders the chart as release {@code namespace} in {@code namespace} with {@code values} and
     * creates its RBAC objects there.
     */
    static ChartRbac install(KubernetesClient admin, String namespace, Map<String, Object> values) {
        List<HasMetadata> rbac = RenderedChart.render(namespace, namespace, values).all().stream()
                .filter(object -> RBAC_KINDS.contains(object.getKind())).toList();
        List<HasMetadata> created = rbac.stream().map(object -> admin.resource(object).create()).toList();
        String serviceAccount = created.stream().filter(ServiceAccount.class::isInstance).findFirst()
                .orElseThrow(() -> new AssertionError("the chart rendered no ServiceAccount")).getMetadata().getName();
        return new ChartRbac(admin, namespace, created, serviceAccount);
    }

    /** What the chart created, e.g. {@code [ServiceAccount x, Role y, ...]}. */
    List<String> objects() {
        return created.stream().map(o -> o.getKind() + " " + o.getMetadata().getName()).toList();
    }

    /**
     * Whether the chart's ServiceAccount may {@code verb} {@code resource} (of {@code group}) in
     * {@code namespace}: the API server's own answer (a SubjectAccessReview, what
     * {@code kubectl auth can-i --as=system:serviceaccount:<ns>:<name>} asks).
     */
    boolean allows(String verb, String group, String resource, String namespace) {
        var review = new io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder().withNewSpec()
                .withUser("system:serviceaccount:" + this.namespace + ":" + serviceAccount)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + this.namespace, "system:authenticated")
                .withNewResourceAttributes().withVerb(verb).withGroup(group).withResource(resource)
                .withNamespace(namespace).endResourceAttributes().endSpec().build();
        return admin.authorization().v1().subjectAccessReview().create(review).getStatus().getAllowed();
    }

    /** The requests the operator's client was refused, as {@code METHOD uri}. */
    List<String> forbidden() {
        return List.copyOf(forbidden);
    }

    /** A client authenticated as the chart's ServiceAccount, recording every 403 it gets in {@link #forbidden()}. */
    KubernetesClient operatorClient() {
        return client(forbidden);
    }

    /** A client authenticated as the chart's ServiceAccount, adding every request refused with 403 to {@code sink}. */
    KubernetesClient client(List<String> sink) {
        Interceptor recorder = new Interceptor() {
            @Override
            public void after(HttpRequest request, HttpResponse<?> response,
                    AsyncBody.Consumer<List<ByteBuffer>> consumer) {
                if (response.code() == 403) {
                    sink.add(request.method() + " " + request.uri());
                }
            }
        };
        return new KubernetesClientBuilder().withConfig(serviceAccountConfig())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("e2e-forbidden", recorder))
                .build();
    }

    /**
     * Only the server and how to trust it are taken from the admin's configuration: no client
     * certificate, no exec plugin, no token file that could authenticate as anybody else.
     */
    private Config serviceAccountConfig() {
        Config config = admin.getConfiguration();
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(config.getMasterUrl())
                .withCaCertData(config.getCaCertData())
                .withCaCertFile(config.getCaCertFile())
                .withTrustCerts(config.isTrustCerts())
                .withDisableHostnameVerification(config.isDisableHostnameVerification())
                .withOauthToken(token())
                .withNamespace(namespace)
                .build();
    }

    private String token() {
        TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
        return admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount).tokenRequest(request)
                .getStatus().getToken();
    }

    @Override
    public void close() {
        for (HasMetadata object : created) {
            if (object instanceof ClusterRole || object instanceof ClusterRoleBinding) {
                admin.resource(object).delete();
            }
        }
    }
}
