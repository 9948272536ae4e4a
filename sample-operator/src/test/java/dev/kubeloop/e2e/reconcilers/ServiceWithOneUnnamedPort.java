package dev.kubeloop.e2e.reconcilers;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import org.springframework.context.annotation.Bean;

/**
 * For each ConfigMap labelled {@value #SELECTED}{@code =true}, a Service of its name with one port,
 * 80, unnamed as most are; applied with {@code removeStaleEntries()} when the ConfigMap's
 * {@code removeStaleEntries} says so. Outside {@code dev.kubeloop.sample}, so that the scan for
 * reconcilers of the sample's tests does not find it: only a test that imports {@link Config} has it.
 */
@Reconciler(name = "e2e-ports", labelSelector = ServiceWithOneUnnamedPort.SELECTED + "=true", owns = Service.class)
public class ServiceWithOneUnnamedPort implements ResourceReconciler<ConfigMap> {

    public static final String SELECTED = "kubeloop.dev/e2e-ports";

    @Override
    public Result reconcile(ConfigMap primary, ReconcileContext<ConfigMap> context) {
        Service service = new ServiceBuilder().withNewMetadata().withName(primary.getMetadata().getName())
                .endMetadata().withNewSpec().addToSelector("app", "ports").addNewPort().withPort(80)
                .withProtocol("TCP").endPort().endSpec().build();
        ApplyOptions options = ApplyOptions.defaults();
        context.apply(service, Boolean.parseBoolean(primary.getData().get("removeStaleEntries"))
                ? options.removeStaleEntries() : options);
        return Result.done();
    }

    /** For {@code @Import}. */
    public static class Config {

        @Bean
        ServiceWithOneUnnamedPort serviceWithOneUnnamedPort() {
            return new ServiceWithOneUnnamedPort();
        }
    }
}
