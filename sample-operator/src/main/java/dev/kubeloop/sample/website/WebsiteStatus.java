package dev.kubeloop.sample.website;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the operator observed. Conditions follow the Kubernetes API conventions (Ready,
 * Progressing, Degraded; no phase field); each carries the generation it describes.
 */
public class WebsiteStatus {

    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Pods of the site's Deployment that are ready.")
    private Integer readyReplicas;

    @JsonPropertyDescription("The in-cluster URL of the site's Service.")
    private String url;

    @JsonPropertyDescription("Ready, Progressing and Degraded.")
    private List<Condition> conditions = new ArrayList<>();

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Integer getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(Integer readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Optional<Condition> condition(String type) {
        return conditions == null ? Optional.empty()
                : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WebsiteStatus that && Objects.equals(observedGeneration, that.observedGeneration)
                && Objects.equals(readyReplicas, that.readyReplicas) && Objects.equals(url, that.url)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(observedGeneration, readyReplicas, url, conditions);
    }
}
