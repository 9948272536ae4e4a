package dev.kubeloop.acceptance.cronjob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.conditions.Conditions;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The original's behaviour (cronjob_controller_test.go, and what cronjob_controller.go does) against
 * the kit's API server: embedded, or the real one when KUBECONFIG is set. As the original's tests
 * do, time is the test's: a {@link ManualClock} the reconciler reads, set past the schedule's next
 * time, then a reconcile queued ({@code kit.reconcile}) where the original waits for its requeue.
 * Neither server runs Jobs (no job controller): a test writes a run's status where Kubernetes would.
 * CronJob has no {@code status.observedGeneration}; each wait says what it waits for.
 */
@KubeloopTest(crds = "classpath:" + CronJob.CRD, properties = "operator.embedded-api-server=off")
class CronJobReconcilerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TestConfiguration(proxyBeanMethods = false)
    static class Time {
        @Bean
        ManualClock clock() {
            return new ManualClock();
        }
    }

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ManualClock clock;

    @BeforeEach
    void now() {
        clock.set(Instant.now());
    }

    @Test
    void aJobOwnedByTheCronJobIsListedAsActive() {
        // the original's one test, step for step
        CronJob cronJob = client.resource(cronJob("test-cronjob", "1 * * * *", spec -> { })).create();
        assertThat(cronJob.getSpec().getSchedule()).isEqualTo("1 * * * *");

        CronJob reconciled = awaitReconciled(cronJob);
        assertThat(reconciled.getStatus().getConditions()).as("conditions initialized").isNotEmpty();
        assertThat(active(reconciled)).as("no active Job yet").isEmpty();

        Job job = client.resource(runOf(reconciled, "test-job")).create();

        kit.await("the CronJob lists test-job as active", TIMEOUT, () -> active(latest(cronJob)).equals(List.of("test-job")));
        ObjectReference reference = latest(cronJob).getStatus().getActive().get(0);
        assertThat(reference.getKind()).isEqualTo("Job");
        assertThat(reference.getApiVersion()).isEqualTo("batch/v1");
        assertThat(reference.getNamespace()).isEqualTo(kit.namespace());
        assertThat(reference.getUid()).isEqualTo(job.getMetadata().getUid());
        assertThat(Conditions.find(latest(cronJob).getStatus().getConditions(), "Available")).get().satisfies(available -> {
            assertThat(available.getStatus()).isEqualTo("True");
            assertThat(available.getReason()).isEqualTo("JobsActive");
        });
    }

    @Test
    void aRunStartsAtItsScheduledTimeFromTheTemplateAndOnlyOnce() {
        CronJob cronJob = awaitReconciled(client.resource(cronJob("hourly", "0 * * * *", spec -> {
            spec.getJobTemplate().setMetadata(new ObjectMetaBuilder().withLabels(Map.of("team", "batch"))
                    .withAnnotations(Map.of("note", "from the template")).build());
        })).create());
        assertThat(client.batch().v1().jobs().inNamespace(kit.namespace()).withName(runName(cronJob, nextHour(cronJob)))
                .get()).as("nothing runs before its time").isNull();

        Instant hour = nextHour(cronJob);
        clock.set(hour.plusSeconds(30));
        kit.reconcile(cronJob);

        Job run = awaitRun(cronJob, hour);
        assertThat(run.getMetadata().getAnnotations())
                .containsEntry(Runs.SCHEDULED_AT, hour.toString())
                .containsEntry("note", "from the template");
        assertThat(run.getMetadata().getLabels()).containsEntry("team", "batch");
        assertThat(run.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(cronJob.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        assertThat(run.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                .satisfies(container -> assertThat(container.getImage()).isEqualTo("test-image"));
        kit.await("lastScheduleTime is the run's and the run is active", TIMEOUT, () -> {
            CronJob latest = latest(cronJob);
            return hour.toString().equals(latest.getStatus().getLastScheduleTime())
                    && active(latest).equals(List.of(run.getMetadata().getName()));
        });

        // later within the same hour, and again: the run is not started a second time
        clock.set(hour.plusSeconds(600));
        kit.reconcile(cronJob);
        awaitReconciled(cronJob);
        assertThat(runs(cronJob)).extracting(job -> job.getMetadata().getName())
                .containsExactly(run.getMetadata().getName());
    }

    @Test
    void forbidSkipsARunWhileAnotherIsActiveAndStartsItOnceThatFinished() {
        SecondRunDue due = secondRunDue("forbid", ConcurrencyPolicy.Forbid);

        awaitReconciled(due.cronJob());
        assertThat(runs(due.cronJob())).as("the second run waits").extracting(job -> job.getMetadata().getName())
                .containsExactly(due.firstRun().getMetadata().getName());

        finish(due.firstRun(), "Complete", due.second().minus(1, ChronoUnit.HOURS).plusSeconds(1));

        awaitRun(due.cronJob(), due.second());
    }

    @Test
    void replaceDeletesTheActiveRunAndStartsTheNext() {
        SecondRunDue due = secondRunDue("replace", ConcurrencyPolicy.Replace);

        Job secondRun = awaitRun(due.cronJob(), due.second());
        kit.await("the first run is deleted", TIMEOUT, () -> client.resource(due.firstRun()).get() == null);
        kit.await("only the second run is active", TIMEOUT,
                () -> active(latest(due.cronJob())).equals(List.of(secondRun.getMetadata().getName())));
    }

    @Test
    void allowLetsRunsOverlap() {
        SecondRunDue due = secondRunDue("allow", ConcurrencyPolicy.Allow);

        Job secondRun = awaitRun(due.cronJob(), due.second());
        kit.await("both runs are active", TIMEOUT, () -> active(latest(due.cronJob()))
                .equals(List.of(due.firstRun().getMetadata().getName(), secondRun.getMetadata().getName())));
    }

    @Test
    void finishedRunsBeyondTheHistoryLimitsAreDeletedOldestFirst() {
        CronJob cronJob = awaitReconciled(client.resource(cronJob("history", "0 0 1 1 *", spec -> {
            spec.setSuccessfulJobsHistoryLimit(2);
            spec.setFailedJobsHistoryLimit(1);
        })).create());
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(1, ChronoUnit.DAYS);
        // created in an order other than their start times': the limits go by start time
        run(cronJob, "succeeded-b", "Complete", started.plusSeconds(20));
        run(cronJob, "succeeded-a", "Complete", started.plusSeconds(10));
        run(cronJob, "succeeded-c", "Complete", started.plusSeconds(30));
        run(cronJob, "failed-b", "Failed", started.plusSeconds(20));
        run(cronJob, "failed-a", "Failed", started.plusSeconds(10));
        Job active = client.resource(runOf(cronJob, "still-running")).create();

        kit.await("the oldest successful and failed runs are deleted", TIMEOUT, () -> names(runs(cronJob))
                .equals(List.of("failed-b", "still-running", "succeeded-b", "succeeded-c")));
        kit.await("two Deleted events", TIMEOUT, () -> kit.eventReasons(cronJob).stream()
                .filter("Deleted"::equals).count() == 2);
        assertThat(active(latest(cronJob))).containsExactly(active.getMetadata().getName());
    }

    @Test
    void aRunDeletedByAHistoryLimitOfZeroIsNotStartedAgain() {
        // the original reconstitutes lastScheduleTime from the runs alone: with the run gone, so is the
        // time, and the same run would start again at once
        CronJob cronJob = awaitReconciled(client.resource(cronJob("no-history", "0 * * * *",
                spec -> spec.setSuccessfulJobsHistoryLimit(0))).create());
        Instant hour = nextHour(cronJob);
        Job run = startRun(cronJob, hour);

        finish(run, "Complete", hour.plusSeconds(1));

        kit.await("the finished run is deleted", TIMEOUT, () -> client.resource(run).get() == null);
        kit.reconcile(cronJob);
        CronJob reconciled = awaitReconciled(cronJob);
        assertThat(runs(cronJob)).as("not started again").isEmpty();
        assertThat(reconciled.getStatus().getLastScheduleTime()).isEqualTo(hour.toString());
    }

    @Test
    void aSuspendedCronJobStartsNothing() {
        CronJob cronJob = awaitReconciled(client.resource(cronJob("suspended", "0 * * * *",
                spec -> spec.setSuspend(true))).create());

        clock.set(nextHour(cronJob).plusSeconds(30));
        kit.reconcile(cronJob);

        awaitReconciled(cronJob);
        assertThat(runs(cronJob)).isEmpty();
    }

    @Test
    void aRunPastItsStartingDeadlineIsSkipped() {
        CronJob cronJob = awaitReconciled(client.resource(cronJob("late", "0 * * * *",
                spec -> spec.setStartingDeadlineSeconds(10L))).create());
        Instant hour = nextHour(cronJob);

        clock.set(hour.plusSeconds(11));
        kit.reconcile(cronJob);
        awaitReconciled(cronJob);
        assertThat(runs(cronJob)).as("11 s late, with 10 s allowed").isEmpty();

        // the same run seen sooner (the test's clock goes back): 9 s late is within the deadline
        clock.set(hour.plusSeconds(9));
        kit.reconcile(cronJob);
        awaitRun(cronJob, hour);
    }

    @Test
    void anUnparseableScheduleIsAWarningAndNotRetried() {
        // the validator refuses it at admission; stored without webhooks (as here) the reconciler says so
        CronJob cronJob = awaitReconciled(client.resource(cronJob("unparseable", "every hour", spec -> { })).create());

        String message = "Failed to parse schedule: unparseable schedule \"every hour\": Expected exactly 5 fields, "
                + "found 2: every hour";
        kit.await("Degraded with reason InvalidSchedule", TIMEOUT, () -> Conditions.find(latest(cronJob).getStatus()
                .getConditions(), "Degraded").filter(degraded -> degraded.getStatus().equals("True")
                        && degraded.getReason().equals("InvalidSchedule") && degraded.getMessage().equals(message))
                .isPresent());
        Event invalid = kit.awaitEvent(cronJob, "InvalidSchedule");
        assertThat(invalid.getType()).isEqualTo("Warning");
        assertThat(invalid.getMessage()).isEqualTo(message);
        assertThat(kit.metrics("cronjob").recentErrors()).noneMatch(error -> error.key().equals(ObjectKey.of(cronJob)));
    }

    @Test
    void tooManyMissedStartsStartNothingAndSaySo() {
        CronJob cronJob = awaitReconciled(client.resource(cronJob("wedged", "* * * * *", spec -> { })).create());

        clock.set(created(cronJob).plus(3, ChronoUnit.HOURS));
        kit.reconcile(cronJob);

        // the original reports it as it reports an unparseable schedule
        assertThat(kit.awaitEvent(cronJob, "InvalidSchedule").getMessage())
                .isEqualTo("Failed to parse schedule: Too many missed start times (> 100). Set or decrease "
                        + ".spec.startingDeadlineSeconds or check clock skew.");
        kit.await("Degraded", TIMEOUT, () -> Conditions.isTrue(latest(cronJob).getStatus().getConditions(), "Degraded"));
        awaitReconciled(cronJob);
        assertThat(runs(cronJob)).isEmpty();
    }

    @Test
    void aCronJobNameAtTheLengthLimitGivesRunsAtTheLimitOfAName() {
        String name = "n".repeat(CronJobValidator.MAX_NAME_LENGTH);
        CronJob cronJob = awaitReconciled(client.resource(cronJob(name, "0 * * * *", spec -> { })).create());
        Instant hour = nextHour(cronJob);

        Job run = startRun(cronJob, hour);

        assertThat(run.getMetadata().getName()).hasSize(63);
    }

    // ---- the original's objects ----------------------------------------------------------------

    private CronJob cronJob(String name, String schedule, Consumer<CronJobSpec> customize) {
        CronJob cronJob = new CronJob();
        cronJob.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(kit.namespace()).build());
        cronJob.getSpec().setSchedule(schedule);
        cronJob.getSpec().setJobTemplate(template());
        customize.accept(cronJob.getSpec());
        return cronJob;
    }

    /** The original test's stub: only the required fields. */
    private static JobTemplateSpec template() {
        return new JobTemplateSpecBuilder()
                .withNewSpec()
                    .withNewTemplate()
                        .withNewSpec()
                            .addNewContainer().withName("test-container").withImage("test-image").endContainer()
                            .withRestartPolicy("OnFailure")
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    /** A Job made by hand with the CronJob as its controller, as the original test makes one. */
    private Job runOf(CronJob cronJob, String name) {
        return new JobBuilder()
                .withNewMetadata()
                    .withName(name)
                    .withNamespace(kit.namespace())
                    .withOwnerReferences(new OwnerReferenceBuilder()
                            .withApiVersion(cronJob.getApiVersion())
                            .withKind(cronJob.getKind())
                            .withName(cronJob.getMetadata().getName())
                            .withUid(cronJob.getMetadata().getUid())
                            .withController(true)
                            .withBlockOwnerDeletion(true)
                            .build())
                .endMetadata()
                .withSpec(template().getSpec())
                .build();
    }

    /** A finished run made by hand, started at {@code startTime}. */
    private Job run(CronJob cronJob, String name, String outcome, Instant startTime) {
        return finish(client.resource(runOf(cronJob, name)).create(), outcome, startTime);
    }

    /** Writes what the job controller would: the run started at {@code startTime} and ended with {@code outcome}. */
    private Job finish(Job run, String outcome, Instant startTime) {
        return client.batch().v1().jobs().inNamespace(kit.namespace()).withName(run.getMetadata().getName())
                .editStatus(job -> {
                    job.setStatus(new JobStatusBuilder()
                            .withStartTime(startTime.toString())
                            .addNewCondition().withType(outcome).withStatus("True").endCondition()
                            .build());
                    return job;
                });
    }

    /** An hourly CronJob whose first run is active, when its second is due. */
    private record SecondRunDue(CronJob cronJob, Job firstRun, Instant second) {
    }

    /** Starts the first run of an hourly CronJob with {@code policy}, then moves the clock past the second's time and queues a reconcile. */
    private SecondRunDue secondRunDue(String name, ConcurrencyPolicy policy) {
        CronJob cronJob = awaitReconciled(client.resource(cronJob(name, "0 * * * *",
                spec -> spec.setConcurrencyPolicy(policy))).create());
        Instant first = nextHour(cronJob);
        Job firstRun = startRun(cronJob, first);
        Instant second = first.plus(1, ChronoUnit.HOURS);
        clock.set(second.plusSeconds(30));
        kit.reconcile(cronJob);
        return new SecondRunDue(cronJob, firstRun, second);
    }

    /** Moves the clock past {@code scheduled}, queues a reconcile, and returns the run it starts. */
    private Job startRun(CronJob cronJob, Instant scheduled) {
        clock.set(scheduled.plusSeconds(30));
        kit.reconcile(cronJob);
        Job run = awaitRun(cronJob, scheduled);
        kit.await("the run is active", TIMEOUT, () -> active(latest(cronJob)).contains(run.getMetadata().getName()));
        return run;
    }

    // ---- waiting and reading -------------------------------------------------------------------

    private CronJob awaitReconciled(CronJob cronJob) {
        return kit.awaitReconciled(cronJob, any -> true, TIMEOUT);
    }

    private Job awaitRun(CronJob cronJob, Instant scheduled) {
        String name = runName(cronJob, scheduled);
        kit.await("the run " + name, TIMEOUT,
                () -> client.batch().v1().jobs().inNamespace(kit.namespace()).withName(name).get() != null);
        return client.batch().v1().jobs().inNamespace(kit.namespace()).withName(name).get();
    }

    private CronJob latest(CronJob cronJob) {
        return client.resource(cronJob).get();
    }

    private List<Job> runs(CronJob cronJob) {
        return kit.owned(latest(cronJob), Job.class);
    }

    private static List<String> active(CronJob cronJob) {
        return cronJob.getStatus() == null || cronJob.getStatus().getActive() == null ? List.of()
                : cronJob.getStatus().getActive().stream().map(ObjectReference::getName).sorted().toList();
    }

    private static List<String> names(List<Job> jobs) {
        return jobs.stream().map(job -> job.getMetadata().getName()).sorted().toList();
    }

    private static Instant created(CronJob cronJob) {
        return Instant.parse(cronJob.getMetadata().getCreationTimestamp());
    }

    /** The first top of the hour after the CronJob was created: its first run of {@code 0 * * * *}. */
    private static Instant nextHour(CronJob cronJob) {
        return created(cronJob).truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);
    }

    private static String runName(CronJob cronJob, Instant scheduled) {
        return cronJob.getMetadata().getName() + "-" + scheduled.getEpochSecond();
    }
}
