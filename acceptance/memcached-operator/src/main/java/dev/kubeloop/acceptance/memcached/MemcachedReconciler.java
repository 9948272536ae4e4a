package dev.kubeloop.acceptance.memcached;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.conditions.ConditionStatus;
import dev.kubeloop.api.conditions.Conditions;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;

/**
 * operator-sdk's memcached controller (internal/controller/memcached_controller.go) on Kubeloop: a
 * Memcached becomes a Deployment of {@code spec.size} memcached Pods, and its conditions say so.
 *
 * <p>What the port changes and why (docs/acceptance.md has the whole list):
 * <ul>
 *   <li>Get-or-create plus "update replicas if they differ" becomes one {@code context.apply}: it
 *       creates, resizes and repairs drift alike, and sends nothing when all is as wanted.
 *   <li>The finalizer the original adds and removes by hand is Kubeloop's, through {@link Cleaner}
 *       and {@code finalizer = ...} (the original's name, so objects carry the same finalizer).
 *   <li>The original's {@code RequeueAfter: time.Minute} after creating the Deployment is dropped:
 *       the Deployment is owned, so its changes reconcile the Memcached anyway.
 * </ul>
 * Stateless: the image is read once at start-up.
 */
@Reconciler(name = "memcached", owns = Deployment.class, finalizer = MemcachedReconciler.FINALIZER)
public class MemcachedReconciler implements ResourceReconciler<Memcached>, Cleaner<Memcached> {

    static final String FINALIZER = "cache.example.com/finalizer";
    static final String AVAILABLE = "Available";
    static final String DEGRADED = "Degraded";
    static final String IMAGE_VARIABLE = "MEMCACHED_IMAGE";

    /** The operand image, from the environment variable the original reads (empty when unset). */
    private final String image;

    public MemcachedReconciler(@Value("${" + IMAGE_VARIABLE + ":}") String image) {
        this.image = image;
    }

    @Override
    public Result reconcile(Memcached memcached, ReconcileContext<Memcached> context) {
        if (memcached.getStatus() == null) {
            memcached.setStatus(new MemcachedStatus());
        }
        if (memcached.getStatus().getConditions().isEmpty()) {
            // as the original: the first thing a user sees is that reconciliation started
            setCondition(memcached, AVAILABLE, ConditionStatus.UNKNOWN, "Reconciling", "Starting reconciliation");
            memcached = context.applyStatus(memcached);
        }

        String name = memcached.getMetadata().getName();
        if (image.isEmpty()) {
            setCondition(memcached, AVAILABLE, ConditionStatus.FALSE, "Reconciling",
                    "Failed to create Deployment for the custom resource (" + name + "): (unable to find "
                            + IMAGE_VARIABLE + " environment variable with the image)");
            context.applyStatus(memcached);
            throw new IllegalStateException("unable to find " + IMAGE_VARIABLE + " environment variable with the image");
        }

        // Go's zero value where the spec has none (the defaulter fills it in when webhooks run)
        int size = memcached.getSpec().getSize() == null ? 0 : memcached.getSpec().getSize();
        context.apply(deployment(memcached, size));

        setCondition(memcached, AVAILABLE, ConditionStatus.TRUE, "Reconciling",
                "Deployment for custom resource (" + name + ") with " + size + " replicas created successfully");
        context.applyStatus(memcached);
        return Result.done();
    }

    @Override
    public Result cleanup(Memcached memcached, ReconcileContext<Memcached> context) {
        String name = memcached.getMetadata().getName();
        if (memcached.getStatus() == null) {
            memcached.setStatus(new MemcachedStatus());
        }
        setCondition(memcached, DEGRADED, ConditionStatus.UNKNOWN, "Finalizing",
                "Performing finalizer operations for the custom resource: " + name + " ");
        memcached = context.applyStatus(memcached);

        // the original's finalizer operation: a Warning event, nothing else to release
        context.events().warning(memcached, "Deleting", "Custom Resource " + name
                + " is being deleted from the namespace " + memcached.getMetadata().getNamespace());

        setCondition(memcached, DEGRADED, ConditionStatus.TRUE, "Finalizing",
                "Finalizer operations for custom resource " + name + " name were successfully accomplished");
        context.applyStatus(memcached);
        return Result.done();
    }

    private Deployment deployment(Memcached memcached, int size) {
        Map<String, String> labels = labels();
        return new DeploymentBuilder()
                .withNewMetadata()
                    .withName(memcached.getMetadata().getName())
                    .withNamespace(memcached.getMetadata().getNamespace())
                .endMetadata()
                .withNewSpec()
                    .withReplicas(size)
                    .withNewSelector().withMatchLabels(labels).endSelector()
                    .withNewTemplate()
                        .withNewMetadata().withLabels(labels).endMetadata()
                        .withNewSpec()
                            .withNewSecurityContext()
                                .withRunAsNonRoot(true)
                                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                            .endSecurityContext()
                            .addNewContainer()
                                .withName("memcached")
                                .withImage(image)
                                .withImagePullPolicy("IfNotPresent")
                                .withNewSecurityContext()
                                    .withRunAsNonRoot(true)
                                    .withRunAsUser(1001L)
                                    .withAllowPrivilegeEscalation(false)
                                    .withNewCapabilities().withDrop("ALL").endCapabilities()
                                .endSecurityContext()
                                .addNewPort()
                                    .withName("memcached")
                                    .withContainerPort(memcached.getSpec().getContainerPort())
                                .endPort()
                                .withCommand("memcached", "-m=64", "-o", "modern", "-v")
                            .endContainer()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    /** The original's labels; its selector includes the image tag, as there. */
    private Map<String, String> labels() {
        int colon = image.lastIndexOf(':');
        return Map.of(
                "app.kubernetes.io/name", "memcached-operator",
                "app.kubernetes.io/version", colon < 0 ? "" : image.substring(colon + 1),
                "app.kubernetes.io/managed-by", "MemcachedController");
    }

    private static void setCondition(Memcached memcached, String type, ConditionStatus status, String reason,
            String message) {
        if (memcached.getStatus().getConditions() == null) {
            memcached.getStatus().setConditions(new ArrayList<>());
        }
        Conditions.set(memcached.getStatus().getConditions(), type, status, reason, message,
                memcached.getMetadata().getGeneration());
    }
}
