package dev.kubeloop.benchmarks.copy;

import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;
import dev.kubeloop.runtime.client.ResourceCopies;
import dev.kubeloop.runtime.client.WriteTargets;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a reconcile pays before and after the user's code: the deep copy of the cached object
 * (the reconciler may modify it) and taking the status out of it for the status write. Compares
 * the ways fabric8's own serialization offers: text round trip ({@code clone}) and a Jackson
 * token-buffer conversion ({@code convertValue}), and for the status a whole-object conversion to
 * a map against reading the status field; and the copy fabric8 makes of the object a write is
 * addressed with (issue 32).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ObjectCopyBenchmark {

    @Param({"bench", "deployment"})
    public String object;

    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private Object cached;
    /** {@link #cached} as a server-side apply of its status returns it: with the two managers' managedFields. */
    private HasMetadata stored;

    @Setup
    public void setUp() {
        if (object.equals("bench")) {
            BenchResource resource = BenchObjects.create("ns", "bench-00001");
            resource.getMetadata().setResourceVersion("12345");
            resource.getMetadata().setUid("9f0c3f8e-1111-2222-3333-444455556666");
            resource.setStatus(new BenchStatus(1L));
            cached = resource;
        } else {
            cached = new DeploymentBuilder()
                    .withNewMetadata().withName("web").withNamespace("ns").withResourceVersion("12345")
                    .withLabels(Map.of("app", "web", "tier", "frontend")).endMetadata()
                    .withNewSpec().withReplicas(3)
                    .withNewSelector().withMatchLabels(Map.of("app", "web")).endSelector()
                    .withNewTemplate().withNewMetadata().withLabels(Map.of("app", "web")).endMetadata()
                    .withNewSpec().addNewContainer().withName("web").withImage("nginx:1.27")
                    .addNewPort().withContainerPort(80).endPort()
                    .addNewEnv().withName("MODE").withValue("production").endEnv()
                    .endContainer().endSpec().endTemplate().endSpec()
                    .withNewStatus().withReplicas(3).withReadyReplicas(3).withObservedGeneration(4L).endStatus()
                    .build();
        }
        stored = serialization.clone((HasMetadata) cached);
        stored.getMetadata().setManagedFields(List.of(
                managedFields("bench-launcher", "Update", null, "{\"f:spec\":{\".\":{},\"f:color\":{},\"f:replicas\":{}}}"),
                managedFields("kubeloop", "Apply", "status",
                        "{\"f:status\":{\"f:observedGeneration\":{},\"f:conditions\":{\".\":{},"
                                + "\"k:{\\\"type\\\":\\\"Ready\\\"}\":{\".\":{},\"f:status\":{},\"f:type\":{}}}}}")));
    }

    private ManagedFieldsEntry managedFields(String manager, String operation, String subresource, String fields) {
        return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation)
                .withApiVersion(stored.getApiVersion()).withTime("2026-11-26T12:00:00Z").withFieldsType("FieldsV1")
                .withFieldsV1(serialization.unmarshal(fields, FieldsV1.class)).withSubresource(subresource).build();
    }

    /**
     * Read-your-writes' copy of what a write returned (the caller may change the object it got),
     * as it was before issue 32's second round: the whole object, managedFields included.
     */
    @Benchmark
    public Object copyWrittenObject() {
        return ResourceCopies.deepCopy(serialization, stored);
    }

    /** The same copy as the runtime makes it when the caches strip managedFields (the default). */
    @Benchmark
    public Object copyWrittenObjectWithoutManagedFields() {
        return ResourceCopies.deepCopyWithoutManagedFields(serialization, stored);
    }

    @Benchmark
    public Object copyByTextRoundTrip() {
        return serialization.clone(cached);
    }

    /**
     * What fabric8 does before a write the runtime addresses with a stub ({@code WriteTargets}):
     * the stub, then fabric8's text round trip of it. Before issue 32 the runtime addressed its
     * writes with the whole object, and fabric8's round trip of it was {@link #copyByTextRoundTrip}.
     */
    @Benchmark
    public Object addressWriteWithStub() {
        return serialization.clone(WriteTargets.of((HasMetadata) cached));
    }

    @Benchmark
    public Object copyByTokenBuffer() {
        return serialization.convertValue(cached, cached.getClass());
    }

    @Benchmark
    public Object statusByMapConversion() {
        return serialization.convertValue(cached, Map.class).get("status");
    }

    @Benchmark
    public Object statusAsJsonDirect() {
        Object status = cached instanceof BenchResource bench ? bench.getStatus() : ((Deployment) cached).getStatus();
        return serialization.asJson(status);
    }

    @Benchmark
    public Object statusAsJsonViaMap() {
        return serialization.asJson(serialization.convertValue(cached, Map.class).get("status"));
    }
}
