package dev.kubeloop.acceptance.cronjob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.test.webhook.WebhookTester;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The original's webhook tests (internal/webhook/v1/cronjob_webhook_test.go), case for case, as the
 * API server calls the webhooks (an AdmissionReview in, one out), without TLS or a cluster.
 */
class CronJobWebhooksTest {

    private static final String VALID_NAME = "valid-cronjob-name";
    private static final String SCHEDULE = "*/5 * * * *";
    private static final String TOO_LONG = "this-name-is-way-too-long-and-should-fail-validation-because-it-is-way-too-long";

    private final WebhookTester webhooks = WebhookTester.builder()
            .defaulter(CronJob.class, new CronJobDefaulter())
            .validator(CronJob.class, new CronJobValidator())
            .build();

    private CronJob cronJob;
    private CronJob oldCronJob;

    @BeforeEach
    void objects() {
        cronJob = cronJob(VALID_NAME);
        oldCronJob = cronJob(VALID_NAME);
    }

    @Test
    void defaultsAreAppliedWhereFieldsAreEmpty() {
        cronJob.getSpec().setConcurrencyPolicy(null);
        cronJob.getSpec().setSuspend(null);
        cronJob.getSpec().setSuccessfulJobsHistoryLimit(null);
        cronJob.getSpec().setFailedJobsHistoryLimit(null);

        AdmissionResult<CronJob> result = webhooks.create(cronJob);

        assertThat(result.allowed()).isTrue();
        CronJobSpec spec = result.object().getSpec();
        assertThat(spec.getConcurrencyPolicy()).isEqualTo(ConcurrencyPolicy.Allow);
        assertThat(spec.getSuspend()).isFalse();
        assertThat(spec.getSuccessfulJobsHistoryLimit()).isEqualTo(3);
        assertThat(spec.getFailedJobsHistoryLimit()).isEqualTo(1);
    }

    @Test
    void fieldsAlreadySetAreNotOverwritten() {
        cronJob.getSpec().setConcurrencyPolicy(ConcurrencyPolicy.Forbid);
        cronJob.getSpec().setSuspend(true);
        cronJob.getSpec().setSuccessfulJobsHistoryLimit(5);
        cronJob.getSpec().setFailedJobsHistoryLimit(2);

        AdmissionResult<CronJob> result = webhooks.create(cronJob);

        assertThat(result.allowed()).isTrue();
        CronJobSpec spec = result.object().getSpec();
        assertThat(spec.getConcurrencyPolicy()).isEqualTo(ConcurrencyPolicy.Forbid);
        assertThat(spec.getSuspend()).isTrue();
        assertThat(spec.getSuccessfulJobsHistoryLimit()).isEqualTo(5);
        assertThat(spec.getFailedJobsHistoryLimit()).isEqualTo(2);
    }

    @Test
    void aCreateWithTooLongANameIsDenied() {
        cronJob.getMetadata().setName(TOO_LONG);

        AdmissionResult<CronJob> result = webhooks.create(cronJob);

        assertThat(result.allowed()).isFalse();
        assertThat(result.message()).contains("must be no more than 52 characters");
    }

    @Test
    void aCreateWithAValidNameIsAdmitted() {
        assertThat(webhooks.create(cronJob).allowed()).isTrue();
    }

    @Test
    void aCreateWithAnInvalidScheduleIsDenied() {
        cronJob.getSpec().setSchedule("invalid-cron-schedule");

        AdmissionResult<CronJob> result = webhooks.create(cronJob);

        assertThat(result.allowed()).isFalse();
        assertThat(result.message()).contains("Expected exactly 5 fields, found 1: invalid-cron-schedule");
    }

    @Test
    void aCreateWithAValidScheduleIsAdmitted() {
        cronJob.getSpec().setSchedule(SCHEDULE);

        assertThat(webhooks.create(cronJob).allowed()).isTrue();
    }

    @Test
    void anUpdateWithBothNameAndScheduleInvalidIsDeniedNamingBoth() {
        cronJob.getMetadata().setName(TOO_LONG);
        cronJob.getSpec().setSchedule("invalid-cron-schedule");

        AdmissionResult<CronJob> result = webhooks.update(oldCronJob, cronJob);

        assertThat(result.allowed()).isFalse();
        assertThat(result.code()).isEqualTo(422);
        assertThat(result.message()).contains("metadata.name", "must be no more than 52 characters", "spec.schedule",
                "Expected exactly 5 fields");
    }

    @Test
    void anUpdateWithBothValidIsAdmitted() {
        cronJob.getMetadata().setName("valid-cronjob-name-updated");
        cronJob.getSpec().setSchedule("0 0 * * *");

        assertThat(webhooks.update(oldCronJob, cronJob).allowed()).isTrue();
    }

    @Test
    void aNameOfExactlyTheLimitIsAdmittedAndOneMoreIsNot() {
        cronJob.getMetadata().setName("n".repeat(52));
        assertThat(webhooks.create(cronJob).allowed()).isTrue();

        cronJob.getMetadata().setName("n".repeat(53));
        assertThat(webhooks.create(cronJob).allowed()).isFalse();
    }

    private static CronJob cronJob(String name) {
        CronJob cronJob = new CronJob();
        cronJob.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        cronJob.getSpec().setSchedule(SCHEDULE);
        cronJob.getSpec().setConcurrencyPolicy(ConcurrencyPolicy.Allow);
        cronJob.getSpec().setSuccessfulJobsHistoryLimit(3);
        cronJob.getSpec().setFailedJobsHistoryLimit(1);
        return cronJob;
    }
}
