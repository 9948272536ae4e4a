package dev.kubeloop.acceptance.cronjob;

import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Defaulter;
import org.springframework.stereotype.Component;

/**
 * The original's mutating webhook (CronJobCustomDefaulter, internal/webhook/v1/cronjob_webhook.go):
 * what a CronJob leaves out gets the defaults the original registers, concurrency policy Allow,
 * not suspended, 3 successful and 1 failed run kept. What is set stays. Idempotent; stateless.
 */
@Component
public class CronJobDefaulter implements Defaulter<CronJob> {

    static final ConcurrencyPolicy DEFAULT_CONCURRENCY_POLICY = ConcurrencyPolicy.Allow;
    static final boolean DEFAULT_SUSPEND = false;
    static final int DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
    static final int DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1;

    @Override
    public void applyDefaults(CronJob cronJob, AdmissionContext context) {
        if (cronJob.getSpec() == null) {
            cronJob.setSpec(new CronJobSpec());
        }
        CronJobSpec spec = cronJob.getSpec();
        if (spec.getConcurrencyPolicy() == null) {
            spec.setConcurrencyPolicy(DEFAULT_CONCURRENCY_POLICY);
        }
        if (spec.getSuspend() == null) {
            spec.setSuspend(DEFAULT_SUSPEND);
        }
        if (spec.getSuccessfulJobsHistoryLimit() == null) {
            spec.setSuccessfulJobsHistoryLimit(DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT);
        }
        if (spec.getFailedJobsHistoryLimit() == null) {
            spec.setFailedJobsHistoryLimit(DEFAULT_FAILED_JOBS_HISTORY_LIMIT);
        }
    }
}
