package dev.kubeloop.testing;

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;

/** Refuses widgets larger than 10: a webhook bean for the auto-configuration's tests. */
public class WidgetValidator implements Validator<Widget> {

    @Override
    public Admission validateCreate(Widget widget, AdmissionContext context) {
        return widget.getSpec().getSize() > 10 ? Admission.denied("spec.size must be at most 10") : Admission.allowed();
    }
}
