package ${package};

import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Defaulter;
import org.springframework.stereotype.Component;

/**
 * Fills in what the schema's constant defaults cannot: an empty {@code spec.message} becomes one
 * naming the ${kind}. Kubeloop serves it at
 * {@code /mutate-${crdGroup.replace('.', '-')}-${crdVersion}-${kind.toLowerCase()}} and answers with
 * the JSONPatch of the changes. Idempotent (the API server may call it twice). Stateless.
 */
@Component
public class ${kind}Defaulter implements Defaulter<${kind}> {

    @Override
    public void applyDefaults(${kind} resource, AdmissionContext context) {
        if (resource.getSpec() == null) {
            resource.setSpec(new ${kind}Spec());
        }
        String message = resource.getSpec().getMessage();
        if (message == null || message.isEmpty()) {
            resource.getSpec().setMessage(defaultMessage(resource));
        }
    }

    static String defaultMessage(${kind} resource) {
        String name = resource.getMetadata().getName();
        return "Hello from " + (name == null ? resource.getMetadata().getGenerateName() : name);
    }
}
