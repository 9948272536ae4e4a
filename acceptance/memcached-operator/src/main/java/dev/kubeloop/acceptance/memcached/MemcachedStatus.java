package dev.kubeloop.acceptance.memcached;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * The original's status: conditions only (Available, Degraded), no {@code observedGeneration}; the
 * tests therefore wait on the conditions, not with {@code kit.awaitReconciled} (docs/acceptance.md).
 */
public class MemcachedStatus {

    @JsonPropertyDescription("Available: the Deployment exists with spec.size replicas; Degraded: finalizing")
    private List<Condition> conditions = new ArrayList<>();

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
