package dev.kubeloop.benchmarks.serialization;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import dev.kubeloop.benchmarks.compare.model.BenchObjects;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.model.BenchStatus;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
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
 * What fabric8's JSON costs per custom resource, the question the informer threads' profile raises
 * (issue 32): a watch event as fabric8's watch manager reads it (the event parsed, its object
 * resolved by apiVersion and kind; an object of a kind not registered with the client's
 * serialization comes out as a {@code GenericKubernetesResource} and is converted to the informer's
 * class, a write and a read more), with the kind registered and without; the object alone parsed
 * (a write's answer) and written (a request's body); each with fabric8's own mapper and with
 * Jackson's Blackbird module on it (generated accessors instead of reflection). docs/performance.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class SerializationBenchmark {

    @Param({"default", "blackbird"})
    public String mapper;

    @Param({"false", "true"})
    public boolean registered;

    private KubernetesSerialization serialization;
    private String object;
    private String watchEvent;
    private BenchResource parsed;

    @Setup
    public void setUp() {
        serialization = mapper.equals("default") ? new KubernetesSerialization()
                : new KubernetesSerialization(new ObjectMapper().registerModule(new BlackbirdModule()), true);
        if (registered) {
            serialization.registerKubernetesResource(BenchResource.class);
        }
        KubernetesSerialization plain = new KubernetesSerialization();
        BenchResource resource = BenchObjects.create("ns", "bench-00001");
        resource.setStatus(new BenchStatus(1L));
        resource.getMetadata().setResourceVersion("12345");
        resource.getMetadata().setUid("9f0c3f8e-1111-2222-3333-444455556666");
        resource.getMetadata().setCreationTimestamp("2026-11-26T12:00:00Z");
        resource.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubeloop")
                .withOperation("Apply").withApiVersion(resource.getApiVersion()).withTime("2026-11-26T12:00:00Z")
                .withFieldsType("FieldsV1").withSubresource("status").withFieldsV1(plain.unmarshal(
                        "{\"f:status\":{\"f:observedGeneration\":{}}}", FieldsV1.class))
                .build()));
        object = plain.asJson(resource);
        watchEvent = "{\"type\":\"MODIFIED\",\"object\":" + object + "}";
        parsed = serialization.unmarshal(object, BenchResource.class);
    }

    /** As fabric8's watch manager reads a watch event for an informer of {@link BenchResource}. */
    @Benchmark
    public Object watchEvent() {
        Object read = serialization.unmarshal(watchEvent, WatchEvent.class).getObject();
        return read instanceof BenchResource ? read : serialization.convertValue(read, BenchResource.class);
    }

    /** As the client reads a write's answer: typed, so the registration changes nothing. */
    @Benchmark
    public HasMetadata parse() {
        return serialization.unmarshal(object, BenchResource.class);
    }

    /** As the client writes a request's body. */
    @Benchmark
    public Object write() {
        return serialization.asJson(parsed);
    }
}
