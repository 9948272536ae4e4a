package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.test.webhook.WebhookTester;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/**
 * The webhooks as the API server calls them (real AdmissionReview bodies through Kubeloop's
 * webhook handling; a defaulter's JSONPatch applied, then the validator), without TLS or a cluster.
 */
class ${kind}WebhooksTest {

    private final WebhookTester webhooks = WebhookTester.builder()
#if ("$!defaulter" != "false")
            .defaulter(${kind}.class, new ${kind}Defaulter())
#end
#if ("$!validator" != "false")
            .validator(${kind}.class, new ${kind}Validator())
#end
            .build();
#if ("$!defaulter" != "false")

    @Test
    void anEmptyMessageIsFilledInByTheDefaulter() {
        AdmissionResult<${kind}> result = webhooks.create(${kind.toLowerCase()}("quiet", ""));

        assertThat(result.allowed()).isTrue();
        assertThat(result.object().getSpec().getMessage()).isEqualTo("Hello from quiet");
    }
#end
#if ("$!validator" != "false")

    @Test
    void aBlankMessageIsRefused() {
        AdmissionResult<${kind}> result = webhooks.create(${kind.toLowerCase()}("blank", "   "));

        assertThat(result.allowed()).isFalse();
        assertThat(result.message()).contains("spec.message must not be only white space");
    }
#end

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
