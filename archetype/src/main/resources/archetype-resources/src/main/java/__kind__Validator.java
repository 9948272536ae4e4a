package ${package};

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import org.springframework.stereotype.Component;

/**
 * What the CRD's schema cannot say, refused before the ${kind} is stored. Kubeloop serves it at
 * {@code /validate-${crdGroup.replace('.', '-')}-${crdVersion}-${kind.toLowerCase()}}; the chart's
 * ValidatingWebhookConfiguration points the API server there. Test it in-process with
 * {@code KubeloopTestKit.webhooks()}. Stateless: called concurrently.
 */
@Component
public class ${kind}Validator implements Validator<${kind}> {

    @Override
    public Admission validateCreate(${kind} resource, AdmissionContext context) {
        return check(resource);
    }

    @Override
    public Admission validateUpdate(${kind} oldResource, ${kind} resource, AdmissionContext context) {
        return check(resource);
    }

    private static Admission check(${kind} resource) {
        String message = resource.getSpec().getMessage();
        if (message != null && !message.isEmpty() && message.isBlank()) {
            return Admission.denied("spec.message must not be only white space");
        }
        return Admission.allowed();
    }
}
