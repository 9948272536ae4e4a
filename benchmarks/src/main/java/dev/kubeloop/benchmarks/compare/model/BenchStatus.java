package dev.kubeloop.benchmarks.compare.model;

/** The one field every contender writes: the generation it reconciled. */
public class BenchStatus {

    private Long observedGeneration;

    public BenchStatus() {
    }

    public BenchStatus(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
