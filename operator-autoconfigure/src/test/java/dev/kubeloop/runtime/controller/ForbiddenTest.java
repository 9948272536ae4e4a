package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which errors are a 403 from the API server, and what each says was refused. */
class ForbiddenTest {

    private static final String USER = "system:serviceaccount:ops:my-operator";

    private static KubernetesClientException apiError(int code, String message) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withReason("Forbidden")
                .withMessage(message).build());
    }

    @Test
    void anRbacDenialOfANamespacedSubresourceNamesVerbResourceGroupNamespaceAndUser() {
        Forbidden forbidden = Forbidden.in(apiError(403, "widgets.kubeloop.dev \"w1\" is forbidden: User \"" + USER
                + "\" cannot patch resource \"widgets/status\" in API group \"kubeloop.dev\" in the namespace \"ns\""))
                .orElseThrow();

        assertThat(forbidden.byAuthorizer()).isTrue();
        assertThat(forbidden).extracting(Forbidden::verb, Forbidden::resource, Forbidden::apiGroup,
                Forbidden::namespace, Forbidden::user)
                .containsExactly("patch", "widgets/status", "kubeloop.dev", "ns", USER);
        assertThat(forbidden.describe()).isEqualTo("RBAC does not allow the operator (user \"" + USER + "\") to "
                + "patch resource \"widgets/status\" in API group \"kubeloop.dev\" in namespace \"ns\": grant the "
                + "verb in the Role or ClusterRole bound to the operator's ServiceAccount");
    }

    @Test
    void aRefusedDeleteSaysHowTheGeneratedRulesGrantIt() {
        Forbidden forbidden = Forbidden.in(apiError(403, "jobs.batch \"backup-1\" is forbidden: User \"" + USER
                + "\" cannot delete resource \"jobs\" in API group \"batch\" in the namespace \"ns\"")).orElseThrow();

        assertThat(forbidden.describe()).contains("to delete resource \"jobs\" in API group \"batch\"")
                .endsWith("(with the rules kubeloop:manifests generates: list the kind in @Reconciler(deletes = ...) "
                        + "and rebuild the chart)");
    }

    @Test
    void anRbacDenialAtTheClusterScopeInTheCoreGroupWithTheAuthorizersReason() {
        Forbidden forbidden = Forbidden.in(apiError(403, "nodes is forbidden: User \"" + USER + "\" cannot list "
                + "resource \"nodes\" in API group \"\" at the cluster scope: RBAC: "
                + "clusterrole.rbac.authorization.k8s.io \"my-operator\" not found")).orElseThrow();

        assertThat(forbidden).extracting(Forbidden::verb, Forbidden::resource, Forbidden::apiGroup,
                Forbidden::namespace).containsExactly("list", "nodes", "", null);
        assertThat(forbidden.describe()).contains("to list resource \"nodes\" in API group \"\" at the cluster scope");
    }

    @Test
    void aForbiddenThatIsNotTheAuthorizersSaysSoAndQuotesTheApiServer() {
        String webhook = "admission webhook \"validate.example.com\" denied the request: size must be even";
        Forbidden forbidden = Forbidden.in(apiError(403, webhook)).orElseThrow();

        assertThat(forbidden.byAuthorizer()).isFalse();
        assertThat(forbidden.describe()).isEqualTo(
                "The API server refused the request with 403 Forbidden (not an RBAC denial): " + webhook);
    }

    @Test
    void aForbiddenIsFoundWhereverTheReconcilerWrappedIt() {
        Throwable wrapped = new IllegalStateException("could not write status",
                new RuntimeException(apiError(403, "events is forbidden")));

        assertThat(Forbidden.in(wrapped)).map(Forbidden::apiMessage).contains("events is forbidden");
    }

    @Test
    void otherErrorsAreNotForbidden() {
        assertThat(Forbidden.in(apiError(409, "the object has been modified"))).isEmpty();
        assertThat(Forbidden.in(new IllegalStateException("forbidden"))).isEqualTo(Optional.empty());
        assertThat(Forbidden.in(null)).isEmpty();
    }
}
