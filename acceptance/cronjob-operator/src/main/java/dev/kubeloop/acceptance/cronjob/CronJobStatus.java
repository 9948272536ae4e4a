package dev.kubeloop.acceptance.cronjob;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectReference;
import java.util.List;

/**
 * The original's status: the active runs, the time of the latest one, and the conditions
 * Available, Progressing and Degraded. {@code lastScheduleTime} is RFC 3339 text, as Go's
 * {@code metav1.Time} serializes; the active runs are left out when there are none, as the
 * original's {@code omitempty} does.
 */
public class CronJobStatus {

    @JsonPropertyDescription("A list of pointers to currently running jobs.")
    private List<ObjectReference> active;

    @JsonPropertyDescription("Information when was the last time the job was successfully scheduled.")
    private String lastScheduleTime;

    @JsonPropertyDescription("conditions represent the current state of the CronJob resource: Available, "
            + "Progressing, Degraded.")
    private List<Condition> conditions;

    public List<ObjectReference> getActive() {
        return active;
    }

    public void setActive(List<ObjectReference> active) {
        this.active = active;
    }

    public String getLastScheduleTime() {
        return lastScheduleTime;
    }

    public void setLastScheduleTime(String lastScheduleTime) {
        this.lastScheduleTime = lastScheduleTime;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
