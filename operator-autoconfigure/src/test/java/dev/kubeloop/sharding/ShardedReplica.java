package dev.kubeloop.sharding;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ShardingState;
import dev.kubeloop.testing.FencedWidgetReconciler;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.LeasePartition;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * One replica of a sharded Widget operator in a test: its own client (whose Lease calls a
 * {@link LeasePartition} can cut), a manager gated by a {@link ShardingGate}, and a reconciler that
 * reports to a shared {@link FencingRegister} and applies one owned ConfigMap per Widget.
 */
final class ShardedReplica implements AutoCloseable {

    static final String NAMESPACE = "ns";
    static final String RING = "widget-operator";

    final String name;
    final LeasePartition partition = new LeasePartition();
    final KubernetesClient client;
    final ShardingGate gate;
    final ControllerManager manager;

    ShardedReplica(MockCluster cluster, String name, FencingRegister register, int buckets, Duration leaseDuration,
            Duration renewDeadline, Duration retryPeriod) {
        this.name = name;
        client = cluster.newClient(builder -> builder.withHttpClientBuilderConsumer(
                http -> http.addOrReplaceInterceptor("partition", partition)));
        gate = new ShardingGate(client, new ShardingSettings(RING, NAMESPACE, name, buckets, leaseDuration,
                renewDeadline, retryPeriod, Duration.ofSeconds(5)));
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).workGate(gate).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(ConfigMap.class).workers(2).build(),
                new OwningReconciler(name, register));
    }

    ShardedReplica start() {
        manager.start();
        return this;
    }

    ShardingState state() {
        return gate.sharding().orElseThrow();
    }

    /** Widgets this replica caches now. */
    int cached() {
        return manager.controller("widget").orElseThrow().cachedPrimaries();
    }

    @Override
    public String toString() {
        ShardingState state = state();
        return name + "[inRing=" + state.inRing() + " held=" + state.held() + " target=" + state.target()
                + " cached=" + cached() + " handoffs=" + state.handoffs() + "]";
    }

    @Override
    public void close() {
        partition.heal();
        manager.stop();
        client.close();
    }

    /** Reports to the register like {@link FencedWidgetReconciler} and applies the Widget's ConfigMap. */
    @Reconciler(owns = ConfigMap.class)
    static final class OwningReconciler extends FencedWidgetReconciler {

        OwningReconciler(String replica, FencingRegister register) {
            super(replica, register, Duration.ofMillis(5));
        }

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
            Result result = super.reconcile(widget, context);
            context.apply(new ConfigMapBuilder().withNewMetadata().withName(widget.getMetadata().getName() + "-data")
                    .endMetadata().addToData("color", widget.getSpec().getColor()).build());
            return result;
        }
    }
}
