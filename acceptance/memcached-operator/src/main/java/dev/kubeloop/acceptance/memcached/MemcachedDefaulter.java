package dev.kubeloop.acceptance.memcached;

import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Defaulter;
import org.springframework.stereotype.Component;

/**
 * The original's mutating webhook (MemcachedCustomDefaulter): a Memcached without a size gets 3.
 * Idempotent; stateless.
 */
@Component
public class MemcachedDefaulter implements Defaulter<Memcached> {

    static final int DEFAULT_SIZE = 3;

    @Override
    public void applyDefaults(Memcached memcached, AdmissionContext context) {
        if (memcached.getSpec() == null) {
            memcached.setSpec(new MemcachedSpec());
        }
        // the Go original tests for 0, its zero value: an int32 cannot tell "absent" from "0"
        Integer size = memcached.getSpec().getSize();
        if (size == null || size == 0) {
            memcached.getSpec().setSize(DEFAULT_SIZE);
        }
    }
}
