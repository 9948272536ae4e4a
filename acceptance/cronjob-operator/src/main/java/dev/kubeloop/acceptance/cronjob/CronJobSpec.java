package dev.kubeloop.acceptance.cronjob;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;

/**
 * The original's spec; its kubebuilder markers ({@code Minimum=0}, the enum) become the schema's
 * bounds. The optional fields are boxed, as the original's pointers are: absent is not zero.
 */
public class CronJobSpec {

    @Required
    @JsonPropertyDescription("The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.")
    private String schedule;

    @Min(0)
    @JsonPropertyDescription("Optional deadline in seconds for starting the job if it misses scheduled time for any "
            + "reason. Missed jobs executions will be counted as failed ones.")
    private Long startingDeadlineSeconds;

    @JsonPropertyDescription("Specifies how to treat concurrent executions of a Job. Valid values are: \"Allow\" "
            + "(default): allows CronJobs to run concurrently; \"Forbid\": forbids concurrent runs, skipping next run "
            + "if previous run hasn't finished yet; \"Replace\": cancels currently running job and replaces it with a "
            + "new one")
    private ConcurrencyPolicy concurrencyPolicy;

    @JsonPropertyDescription("This flag tells the controller to suspend subsequent executions, it does not apply to "
            + "already started executions. Defaults to false.")
    private Boolean suspend;

    @Required
    @JsonPropertyDescription("Specifies the job that will be created when executing a CronJob.")
    private JobTemplateSpec jobTemplate;

    @Min(0)
    @JsonPropertyDescription("The number of successful finished jobs to retain.")
    private Integer successfulJobsHistoryLimit;

    @Min(0)
    @JsonPropertyDescription("The number of failed finished jobs to retain.")
    private Integer failedJobsHistoryLimit;

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    public Long getStartingDeadlineSeconds() {
        return startingDeadlineSeconds;
    }

    public void setStartingDeadlineSeconds(Long startingDeadlineSeconds) {
        this.startingDeadlineSeconds = startingDeadlineSeconds;
    }

    public ConcurrencyPolicy getConcurrencyPolicy() {
        return concurrencyPolicy;
    }

    public void setConcurrencyPolicy(ConcurrencyPolicy concurrencyPolicy) {
        this.concurrencyPolicy = concurrencyPolicy;
    }

    public Boolean getSuspend() {
        return suspend;
    }

    public void setSuspend(Boolean suspend) {
        this.suspend = suspend;
    }

    public JobTemplateSpec getJobTemplate() {
        return jobTemplate;
    }

    public void setJobTemplate(JobTemplateSpec jobTemplate) {
        this.jobTemplate = jobTemplate;
    }

    public Integer getSuccessfulJobsHistoryLimit() {
        return successfulJobsHistoryLimit;
    }

    public void setSuccessfulJobsHistoryLimit(Integer successfulJobsHistoryLimit) {
        this.successfulJobsHistoryLimit = successfulJobsHistoryLimit;
    }

    public Integer getFailedJobsHistoryLimit() {
        return failedJobsHistoryLimit;
    }

    public void setFailedJobsHistoryLimit(Integer failedJobsHistoryLimit) {
        this.failedJobsHistoryLimit = failedJobsHistoryLimit;
    }
}
