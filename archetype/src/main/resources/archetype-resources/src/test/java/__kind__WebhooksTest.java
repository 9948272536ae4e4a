package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.test.webhook.WebhookTester;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/**
 * The validator and defaulter as the API server calls them (real AdmissionReview bodies through
 * Kubeloop's webhook handling; the defaulter's JSONPatch applied, then the validator), without
 * TLS or a cluster.
 */
class ${kind}WebhooksTest {

    private final WebhookTester webhooks = WebhookTester.builder()
            .defaulter(${kind}.class, new ${kind}Defaulter())
            .validator(${kind}.class, new ${kind}Validator())
            .build();

    @Test
    void anEmptyMessageIsFilledInByTheDefaulter() {
        AdmissionResult<${kind}> result = webhooks.create(${kind.toLowerCase()}("quiet", ""));

        assertThat(result.allowed()).isTrue();
        assertThat(result.object().getSpec().getMessage()).isEqualTo("Hello from quiet");
    }

    @Test
    void aBlankMessageIsRefused() {
        AdmissionResult<${kind}> result = webhooks.create(${kind.toLowerCase()}("blank", "   "));

        assertThat(result.allowed()).isFalse();
        assertThat(result.message()).contains("spec.message must not be only white space");
    }

    private static ${kind} ${kind.toLowerCase()}(String name, String message) {
        ${kind} resource = new ${kind}();
#if ($namespaced == 'true')
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
#else
        resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
#end
        resource.getSpec().setMessage(message);
        return resource;
    }
}
