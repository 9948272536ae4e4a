package dev.kubeloop.acceptance.cronjob;

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.FieldError;
import dev.kubeloop.api.webhook.Validator;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The original's validating webhook (CronJobCustomValidator): on create and update, the name must
 * leave room for a run's suffix and the schedule must parse; both errors in one answer, as the
 * original's {@code field.ErrorList}. Deletion is never refused. Stateless.
 */
@Component
public class CronJobValidator implements Validator<CronJob> {

    /**
     * A run is named {@code <cronjob>-<unix seconds>}: 11 characters more, within the 63 of a
     * DNS-1035 label (the original's {@code validationutils.DNS1035LabelMaxLength - 11}).
     */
    static final int MAX_NAME_LENGTH = 63 - 11;

    @Override
    public Admission validateCreate(CronJob cronJob, AdmissionContext context) {
        return validate(cronJob);
    }

    @Override
    public Admission validateUpdate(CronJob oldCronJob, CronJob cronJob, AdmissionContext context) {
        return validate(cronJob);
    }

    private static Admission validate(CronJob cronJob) {
        List<FieldError> errors = new ArrayList<>();
        String name = cronJob.getMetadata().getName();
        if (name != null && name.length() > MAX_NAME_LENGTH) {
            errors.add(FieldError.invalid("metadata.name", name, "must be no more than " + MAX_NAME_LENGTH + " characters"));
        }
        String schedule = cronJob.getSpec() == null ? null : cronJob.getSpec().getSchedule();
        try {
            Schedule.parse(schedule, ZoneOffset.UTC); // the zone does not change what parses
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid("spec.schedule", schedule, e.getMessage()));
        }
        return errors.isEmpty() ? Admission.allowed() : Admission.invalid(errors);
    }
}
