package dev.kubeloop.benchmarks.compare.model;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The custom resource every contender reconciles: {@code bench.kubeloop.dev/v1 BenchResource}.
 * Small on purpose, so that the API server and the frameworks dominate the measurements, not the
 * object's own (de)serialization. Its CRD is {@link BenchCrd}.
 */
@Group(BenchResource.GROUP)
@Version(BenchResource.VERSION)
@Kind(BenchResource.KIND)
@Plural(BenchResource.PLURAL)
public class BenchResource extends CustomResource<BenchSpec, BenchStatus> implements Namespaced {

    private static final long serialVersionUID = 1L;

    public static final String GROUP = "bench.kubeloop.dev";
    public static final String VERSION = "v1";
    public static final String KIND = "BenchResource";
    public static final String PLURAL = "benchresources";

    /** The generation a reconcile must report, never null (the API server sets it on create). */
    public long generation() {
        Long generation = getMetadata().getGeneration();
        return generation == null ? 0 : generation;
    }
}
