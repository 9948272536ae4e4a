package dev.kubeloop.acceptance.cronjob;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.conditions.ConditionStatus;
import dev.kubeloop.api.conditions.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * kubebuilder's CronJob controller (internal/controller/cronjob_controller.go) on Kubeloop: a
 * CronJob starts a Job at each time of its schedule, within its starting deadline and its
 * concurrency policy, keeps its history of finished Jobs to the limits, and says in its status
 * which runs are active, when the latest was scheduled, and its conditions (Available,
 * Progressing, Degraded). The seven steps keep the original's order, status first: the runtime
 * reconciles once more when that status describes the Jobs read before this reconcile changed
 * them, as the change's echo does in controller-runtime.
 *
 * <p>What the port changes and why (docs/acceptance.md has the whole list):
 * <ul>
 *   <li>The field index on {@code .metadata.controller} and the {@code List} by it become
 *       {@code context.owned(Job.class)}: the cached Jobs whose controller reference is this
 *       CronJob (by uid, so a Job of a deleted CronJob of the same name is not counted), with this
 *       reconciler's own writes.
 *   <li>{@code Create} becomes an apply with {@link ApplyOptions#retain()}: each run is owned
 *       (deleted with its CronJob) but never pruned, since a later reconcile does not apply it again.
 *   <li>{@code status.lastScheduleTime} is the later of the runs' and the stored one's. The
 *       original reconstitutes it from the runs alone, so with a history limit of 0 a finished run,
 *       once deleted, took the time with it and the run was started again.
 *   <li>An unparseable schedule (or too many missed starts) is a Warning event besides the
 *       original's Degraded condition, where {@code kubectl describe} shows it.
 *   <li>The original writes its first condition (Progressing Unknown) on its own, then re-reads
 *       the CronJob before each later status write; here it goes with the step-2 status, and
 *       {@code applyStatus} needs no re-read (it is locked on the version this reconcile knows).
 * </ul>
 * Stateless but for the clock, which tests replace with a {@link Clock} bean of their own.
 */
@Reconciler(name = "cronjob", owns = Job.class, deletes = Job.class)
public class CronJobReconciler implements ResourceReconciler<CronJob> {

    static final String AVAILABLE = "Available";
    static final String PROGRESSING = "Progressing";
    static final String DEGRADED = "Degraded";

    private final Clock clock;

    public CronJobReconciler(ObjectProvider<Clock> clock) {
        // the original's realClock unless a test gives another; the default zone is Go's time.Local
        this.clock = clock.getIfAvailable(Clock::systemDefaultZone);
    }

    @Override
    public Result reconcile(CronJob cronJob, ReconcileContext<CronJob> context) {
        CronJobSpec spec = cronJob.getSpec();
        CronJobStatus status = Optional.ofNullable(cronJob.getStatus()).orElseGet(CronJobStatus::new);
        List<Condition> conditions = new ArrayList<>(Optional.ofNullable(status.getConditions()).orElse(List.of()));
        if (conditions.isEmpty()) {
            // the original writes this one on its own first; here it goes with the rest of the status below
            setCondition(cronJob, conditions, PROGRESSING, ConditionStatus.UNKNOWN, "Reconciling", "Starting reconciliation");
        }

        // 2: the runs, and the status they give
        Runs runs = Runs.of(context.owned(Job.class), context.log());
        Instant lastScheduled = later(runs.latest(), storedLastScheduleTime(cronJob));
        status.setActive(runs.active().isEmpty() ? null : runs.active().stream().map(Runs::reference).toList());
        status.setLastScheduleTime(lastScheduled == null ? null : DateTimeFormatter.ISO_INSTANT.format(lastScheduled));
        context.log().debug("job count: {} active, {} successful, {} failed", runs.active().size(),
                runs.successful().size(), runs.failed().size());
        boolean suspended = Boolean.TRUE.equals(spec.getSuspend());
        runConditions(cronJob, conditions, runs, suspended);
        cronJob = writeStatus(cronJob, status, conditions, context);

        // 3: the history limits, best effort: a run that fails to go is not retried for that alone
        deleteOldest(runs.failed(), spec.getFailedJobsHistoryLimit(), "failed", context);
        deleteOldest(runs.successful(), spec.getSuccessfulJobsHistoryLimit(), "successful", context);

        // 4: suspended
        if (suspended) {
            context.log().debug("cronjob suspended, skipping");
            return Result.done();
        }

        // 5: the next run, and the latest missed one
        Instant now = clock.instant();
        Schedule.Starts starts;
        try {
            Schedule schedule = Schedule.parse(spec.getSchedule(), clock.getZone());
            starts = schedule.starts(earliest(cronJob, lastScheduled, now), now);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // as the original: Degraded, and nothing to retry until the spec changes, which reconciles anyway
            String message = e instanceof IllegalStateException ? e.getMessage()
                    : "unparseable schedule \"" + spec.getSchedule() + "\": " + e.getMessage();
            setCondition(cronJob, conditions, DEGRADED, ConditionStatus.TRUE, "InvalidSchedule",
                    "Failed to parse schedule: " + message);
            writeStatus(cronJob, status, conditions, context);
            context.events().warning(cronJob, "InvalidSchedule", "Failed to parse schedule: " + message);
            return Result.done();
        }
        Result atNextRun = starts.next() == null ? Result.done()
                : Result.requeueAfter(Duration.between(now, starts.next()));

        // 6: a run, if one is due (within its deadline: see earliest) and the concurrency policy allows it
        Instant missed = starts.missed();
        if (missed == null) {
            context.log().debug("no upcoming scheduled times, sleeping until {}", starts.next());
            return atNextRun;
        }
        // no "too late" check: the original's never holds, since the search for missed starts already began
        // no earlier than startingDeadlineSeconds ago (earliest): a start past its deadline is not found at all
        if (spec.getConcurrencyPolicy() == ConcurrencyPolicy.Forbid && !runs.active().isEmpty()) {
            context.log().debug("concurrency policy blocks concurrent runs, skipping ({} active)", runs.active().size());
            return atNextRun;
        }
        if (spec.getConcurrencyPolicy() == ConcurrencyPolicy.Replace) {
            // a failure here fails the reconcile, as the original returns the error: retried with backoff
            runs.active().forEach(context::delete);
        }
        Job job = job(cronJob, missed);
        try {
            context.apply(job, ApplyOptions.defaults().retain());
        } catch (KubernetesClientException e) {
            setCondition(cronJob, conditions, DEGRADED, ConditionStatus.TRUE, "JobCreationFailed",
                    "Failed to create job: " + e.getMessage());
            writeStatus(cronJob, status, conditions, context);
            throw e;
        }
        context.log().debug("created Job {} for CronJob run at {}", job.getMetadata().getName(), missed);
        setCondition(cronJob, conditions, PROGRESSING, ConditionStatus.TRUE, "JobCreated",
                "Created job " + job.getMetadata().getName());
        writeStatus(cronJob, status, conditions, context);

        // 7: again at the next run, or sooner when a run changes
        return atNextRun;
    }

    /** The original's conditions for what the runs show. */
    private static void runConditions(CronJob cronJob, List<Condition> conditions, Runs runs, boolean suspended) {
        if (suspended) {
            setCondition(cronJob, conditions, AVAILABLE, ConditionStatus.FALSE, "Suspended", "CronJob is suspended");
        } else if (!runs.failed().isEmpty()) {
            String message = runs.failed().size() + " job(s) have failed";
            setCondition(cronJob, conditions, DEGRADED, ConditionStatus.TRUE, "JobsFailed", message);
            setCondition(cronJob, conditions, AVAILABLE, ConditionStatus.FALSE, "JobsFailed", message);
        } else if (!runs.active().isEmpty()) {
            setCondition(cronJob, conditions, PROGRESSING, ConditionStatus.TRUE, "JobsActive",
                    runs.active().size() + " job(s) are currently active");
            setCondition(cronJob, conditions, AVAILABLE, ConditionStatus.TRUE, "JobsActive",
                    "CronJob is progressing with " + runs.active().size() + " active job(s)");
        } else {
            setCondition(cronJob, conditions, AVAILABLE, ConditionStatus.TRUE, "AllJobsCompleted",
                    "All jobs have completed successfully");
            setCondition(cronJob, conditions, PROGRESSING, ConditionStatus.FALSE, "NoJobsActive",
                    "No jobs are currently active");
        }
    }

    private static CronJob writeStatus(CronJob cronJob, CronJobStatus status, List<Condition> conditions,
            ReconcileContext<CronJob> context) {
        status.setConditions(List.copyOf(conditions));
        cronJob.setStatus(status);
        return context.applyStatus(cronJob);
    }

    private static void setCondition(CronJob cronJob, List<Condition> conditions, String type, ConditionStatus status,
            String reason, String message) {
        Conditions.set(conditions, type, status, reason, message, cronJob.getMetadata().getGeneration());
    }

    /** The original's {@code constructJobForCronJob}: a name fixed by the scheduled time, so a run is never started twice. */
    private Job job(CronJob cronJob, Instant scheduled) {
        JobTemplateSpec template = Optional.ofNullable(cronJob.getSpec().getJobTemplate()).orElseGet(JobTemplateSpec::new);
        ObjectMeta templateMeta = Optional.ofNullable(template.getMetadata()).orElseGet(ObjectMeta::new);
        Map<String, String> annotations = new HashMap<>(Optional.ofNullable(templateMeta.getAnnotations()).orElse(Map.of()));
        annotations.put(Runs.SCHEDULED_AT, DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(scheduled.atZone(clock.getZone())));
        return new JobBuilder()
                .withNewMetadata()
                    .withName(cronJob.getMetadata().getName() + "-" + scheduled.getEpochSecond())
                    .withNamespace(cronJob.getMetadata().getNamespace())
                    .withLabels(templateMeta.getLabels())
                    .withAnnotations(annotations)
                .endMetadata()
                .withSpec(Optional.ofNullable(template.getSpec()).orElseGet(JobSpec::new))
                .build();
    }

    /** Deletes the oldest of {@code finished} beyond {@code limit}; no limit keeps them all. */
    private static void deleteOldest(List<Job> finished, @Nullable Integer limit, String outcome,
            ReconcileContext<CronJob> context) {
        if (limit == null) {
            return;
        }
        List<Job> oldestFirst = Runs.oldestFirst(finished);
        for (Job job : oldestFirst.subList(0, Math.max(0, oldestFirst.size() - limit))) {
            try {
                context.delete(job);
                context.log().info("deleted old {} job {}", outcome, job.getMetadata().getName());
            } catch (KubernetesClientException e) {
                context.log().error("unable to delete old {} job {}: {}", outcome, job.getMetadata().getName(),
                        e.getMessage());
            }
        }
    }

    /** Where the search for missed starts begins: the latest run, or the creation; never before the deadline allows. */
    private static Instant earliest(CronJob cronJob, @Nullable Instant lastScheduled, Instant now) {
        Instant earliest = lastScheduled != null ? lastScheduled
                : OffsetDateTime.parse(cronJob.getMetadata().getCreationTimestamp()).toInstant();
        Long deadline = cronJob.getSpec().getStartingDeadlineSeconds();
        if (deadline != null) {
            Instant schedulingDeadline = now.minusSeconds(deadline);
            if (schedulingDeadline.isAfter(earliest)) {
                earliest = schedulingDeadline;
            }
        }
        return earliest;
    }

    private static @Nullable Instant storedLastScheduleTime(CronJob cronJob) {
        String stored = cronJob.getStatus() == null ? null : cronJob.getStatus().getLastScheduleTime();
        try {
            return stored == null ? null : OffsetDateTime.parse(stored).toInstant();
        } catch (DateTimeParseException e) {
            return null; // written by hand: the runs say when the latest was
        }
    }

    private static @Nullable Instant later(@Nullable Instant a, @Nullable Instant b) {
        return a == null ? b : b == null || a.isAfter(b) ? a : b;
    }
}
