package dev.kubeloop.acceptance.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.test.webhook.WebhookTester;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

/** The original's defaulting webhook (memcached_webhook.go), as the API server calls it, without TLS or a cluster. */
class MemcachedWebhooksTest {

    private final WebhookTester webhooks = WebhookTester.builder()
            .defaulter(Memcached.class, new MemcachedDefaulter())
            .build();

    @Test
    void aMemcachedWithoutSizeGetsThree() {
        AdmissionResult<Memcached> result = webhooks.create(memcached(null));

        assertThat(result.allowed()).isTrue();
        assertThat(result.object().getSpec().getSize()).isEqualTo(3);
    }

    @Test
    void aGivenSizeIsKept() {
        AdmissionResult<Memcached> result = webhooks.create(memcached(2));

        assertThat(result.allowed()).isTrue();
        assertThat(result.object().getSpec().getSize()).isEqualTo(2);
    }

    private static Memcached memcached(Integer size) {
        Memcached memcached = new Memcached();
        memcached.setMetadata(new ObjectMetaBuilder().withName("defaulted").withNamespace("default").build());
        memcached.getSpec().setSize(size);
        memcached.getSpec().setContainerPort(11211);
        return memcached;
    }
}
