package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTestKit;
import dev.kubeloop.test.TestCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * The operator runs as the Helm chart's ServiceAccount with nothing but the chart's RBAC (see
 * {@link ChartRbac}), with leader election on as the chart configures it, and does its whole job:
 * the Lease, owned objects, status, events, the index, repairs, InvalidSpec, cleanup behind its
 * finalizer. Any request refused with 403 fails the test, so the
 * chart's rules are proven sufficient; {@link #theIdentityHasNothingBeyondTheChartsRules} proves
 * the identity is not secretly more powerful. The test itself acts as a user with the kit's
 * (admin) client.
 *
 * <p>Subclasses choose the chart's values through the property {@value #CHART_VALUES}
 * ({@code key=value} pairs, comma-separated; none: the defaults, Roles in the release namespace,
 * which is the test namespace), and set the operator's properties to match, as the chart's
 * Deployment would.
 */
abstract class ChartRbacE2ETest {

    /** The chart's values, {@code key=value,key=value}; empty: its defaults. */
    static final String CHART_VALUES = "e2e.chart.values";

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ChartRbac rbac;

    @Autowired
    ControllerManager manager;

    @AfterEach
    void nothingWasForbidden() {
        assertThat(rbac.forbidden()).as("requests of the operator refused with 403 under the chart's RBAC "
                + rbac.objects()).isEmpty();
        assertThat(kit.metrics("website").outcomes().get(ReconcileOutcome.ERROR)).as("failed reconciles").isZero();
        kit.metrics("website").informers().forEach(informer -> assertThat(informer.failed())
                .as(informer.describe() + " failed: " + informer.failure()).isFalse());
    }

    @Test
    void theOperatorDoesItsWholeJobWithOnlyTheChartsRbac() {
        KubernetesClient user = kit.client();
        kit.await("the operator leads on its Lease", () -> manager.leadership().isLeader());
        assertThat(user.leases().withName(manager.leadership().leaseName()).get().getSpec().getHolderIdentity())
                .isEqualTo(manager.leadership().identity());
        Website site = kit.awaitReconciled(user.resource(Sites.website(kit.namespace(), "rbac", "v1")).create());
        assertThat(kit.owned(site, ConfigMap.class)).hasSize(1);
        assertThat(kit.owned(site, Service.class)).hasSize(1);
        Deployment deployment = kit.owned(site, Deployment.class).get(0);
        kit.awaitEvent(site, "Created");
        assertThat(Sites.index(user, kit.namespace())).containsKey("rbac");

        user.apps().deployments().withName(deployment.getMetadata().getName()).editStatus(current -> {
            current.setStatus(new DeploymentStatus());
            current.getStatus().setReplicas(1);
            current.getStatus().setReadyReplicas(1);
            return current;
        });
        kit.await("the Website turns Ready", () -> user.resource(site).get().getStatus().condition("Ready")
                .map(ready -> "True".equals(ready.getStatus())).orElse(false));
        kit.awaitReconciled(site);
        assertThat(kit.eventReasons(site)).as("nobody edited an owned object, so nothing was repaired "
                + "(server-side defaults are not drift)").doesNotContain("Repaired");

        Website edited = user.resources(Website.class).withName("rbac").edit(w -> {
            w.getSpec().setPage("v2");
            return w;
        });
        kit.awaitReconciled(edited);
        user.resource(deployment).delete();
        kit.await("the Deployment is recreated", () -> kit.owned(site, Deployment.class).stream()
                .anyMatch(d -> !d.getMetadata().getUid().equals(deployment.getMetadata().getUid())));

        Website invalid = Sites.website(kit.namespace(), "invalid", "x");
        invalid.getSpec().setImage("nginx:::latest");
        Website rejected = kit.awaitReconciled(user.resource(invalid).create());
        assertThat(rejected.getStatus().condition("Ready")).hasValueSatisfying(
                ready -> assertThat(ready.getReason()).isEqualTo("InvalidSpec"));
        assertThat(kit.awaitEvent(rejected, "InvalidSpec").getType()).isEqualTo("Warning");

        user.resource(site).delete();
        kit.await("the Website is cleaned up and gone", () -> user.resource(site).get() == null);
        assertThat(Sites.index(user, kit.namespace())).doesNotContainKey("rbac");
    }

    @Test
    void theIdentityHasNothingBeyondTheChartsRules() {
        List<String> refused = new ArrayList<>();
        try (KubernetesClient operator = rbac.client(refused)) {
            // Secrets: at most list and watch (tlsSecrets.watch: the TLS Secrets Websites name, watched
            // metadata-only); never get, never write
            assertThatThrownBy(() -> operator.secrets().inNamespace(kit.namespace()).withName("any").get())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
            assertThatThrownBy(() -> operator.secrets().inNamespace(kit.namespace()).resource(new SecretBuilder()
                    .withNewMetadata().withName("planted").endMetadata().build()).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
            assertThatThrownBy(() -> operator.apps().deployments().inNamespace(kit.namespace()).withName("x")
                    .editStatus(d -> d)).isInstanceOf(KubernetesClientException.class);
            assertThat(operator.resources(Website.class).inNamespace(kit.namespace()).list().getItems()).isNotNull();
        }
        assertThat(refused).as("the recorder sees what is refused").isNotEmpty()
                .anySatisfy(request -> assertThat(request).startsWith("GET").contains("/secrets/any"));
    }

    /** The chart's RBAC, installed for the test namespace, and the operator's client under it. */
    @Configuration(proxyBeanMethods = false)
    static class OperatorUnderChartRbac {

        @Bean
        ChartRbac chartRbac(TestCluster cluster, Environment environment) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (String pair : environment.getProperty(CHART_VALUES, String[].class, new String[0])) {
                String[] keyAndValue = pair.split("=", 2);
                values.put(keyAndValue[0].trim(), keyAndValue[1].trim());
            }
            return ChartRbac.install(cluster.client(), cluster.namespace(), values);
        }

        /** What the operator's runtime uses; the kit and the test keep the admin client. */
        @Bean
        @Primary
        KubernetesClient operatorClient(ChartRbac chartRbac) {
            return chartRbac.operatorClient();
        }
    }
}
