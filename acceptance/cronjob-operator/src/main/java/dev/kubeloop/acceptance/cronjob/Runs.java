package dev.kubeloop.acceptance.cronjob;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * A CronJob's Jobs as one reconcile finds them: the active runs, the finished ones by outcome, and
 * the scheduled time of the latest run (the annotation each run carries). The original's first
 * half of {@code Reconcile}; status is reconstituted from the Jobs every time. Immutable.
 */
record Runs(List<Job> active, List<Job> successful, List<Job> failed, @Nullable Instant latest) {

    /** The annotation with a run's scheduled time, RFC 3339: the original's name, so runs stay readable both ways. */
    static final String SCHEDULED_AT = "batch.tutorial.kubebuilder.io/scheduled-at";

    static Runs of(List<Job> jobs, Logger log) {
        List<Job> active = new ArrayList<>(), successful = new ArrayList<>(), failed = new ArrayList<>();
        Instant latest = null;
        for (Job job : jobs) {
            switch (finished(job)) {
                case "Complete" -> successful.add(job);
                case "Failed" -> failed.add(job);
                default -> active.add(job);
            }
            try {
                Instant scheduled = scheduledAt(job);
                if (scheduled != null && (latest == null || scheduled.isAfter(latest))) {
                    latest = scheduled;
                }
            } catch (DateTimeParseException e) {
                // as the original: a run with an unreadable time still counts as a run, not as the latest
                log.error("unable to parse schedule time for child job {}: {}", job.getMetadata().getName(), e.getMessage());
            }
        }
        return new Runs(List.copyOf(active), List.copyOf(successful), List.copyOf(failed), latest);
    }

    /** The original's {@code ref.GetReference} of a run, as {@code status.active} lists it. */
    static ObjectReference reference(Job job) {
        return new ObjectReferenceBuilder()
                .withApiVersion(HasMetadata.getApiVersion(Job.class))
                .withKind(HasMetadata.getKind(Job.class))
                .withNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withResourceVersion(job.getMetadata().getResourceVersion())
                .build();
    }

    /** Oldest first by {@code status.startTime}, runs not started before all, as the original sorts them for its history limits. */
    static List<Job> oldestFirst(List<Job> runs) {
        return runs.stream().sorted(Comparator.comparing(Runs::startTime,
                Comparator.nullsFirst(Comparator.naturalOrder()))).toList();
    }

    /** "Complete" or "Failed" for a run with that condition True; "" for an active one. */
    private static String finished(Job job) {
        List<JobCondition> conditions = job.getStatus() == null ? null : job.getStatus().getConditions();
        if (conditions != null) {
            for (JobCondition condition : conditions) {
                if ((condition.getType().equals("Complete") || condition.getType().equals("Failed"))
                        && "True".equals(condition.getStatus())) {
                    return condition.getType();
                }
            }
        }
        return "";
    }

    private static @Nullable Instant scheduledAt(Job job) {
        Map<String, String> annotations = job.getMetadata().getAnnotations();
        String raw = annotations == null ? null : annotations.get(SCHEDULED_AT);
        return raw == null || raw.isEmpty() ? null : OffsetDateTime.parse(raw).toInstant();
    }

    private static @Nullable Instant startTime(Job job) {
        String raw = job.getStatus() == null ? null : job.getStatus().getStartTime();
        try {
            return raw == null ? null : OffsetDateTime.parse(raw).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
