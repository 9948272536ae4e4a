package dev.kubeloop.observation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The resource attribute of an API request names the resource, never a namespace or an object. */
class ApiPathsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/api/v1/namespaces/ns/configmaps/shop, configmaps",
        "/api/v1/namespaces/ns/configmaps, configmaps",
        "/api/v1/namespaces/ns, namespaces",
        "/api/v1/namespaces, namespaces",
        "/api/v1/nodes/node-1, nodes",
        "/apis/apps/v1/namespaces/ns/deployments/shop, deployments.apps",
        "/apis/kubeloop.dev/v1/namespaces/ns/widgets/shop/status, widgets.kubeloop.dev/status",
        "/apis/rbac.authorization.k8s.io/v1/clusterroles/view, clusterroles.rbac.authorization.k8s.io",
        "/api/v1/namespaces/ns/pods/web-0/log, pods/log",
        "/apis, other",
        "/version, other",
        "/api/v1, other"
    })
    void namesTheResourceWithGroupAndSubresource(String path, String resource) {
        assertThat(ApiPaths.resource(path)).isEqualTo(resource);
    }
}
