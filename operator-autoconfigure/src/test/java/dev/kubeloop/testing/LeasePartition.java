package dev.kubeloop.testing;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client interceptor that cuts one replica off the Leases, as a network partition or a frozen
 * process would: while {@link #cut() cut}, a read or write of a Lease hangs (until {@link #heal()}
 * or until its thread is interrupted, then fails), and a Lease list or watch fails at once. Every
 * other request goes through, so the replica's informers keep working. Thread-safe.
 */
public final class LeasePartition implements Interceptor {

    private volatile CountDownLatch healed = new CountDownLatch(0);
    private final AtomicInteger hung = new AtomicInteger();

    public void cut() {
        healed = new CountDownLatch(1);
    }

    public void heal() {
        healed.countDown();
    }

    /** How many Lease calls hung since the partition was created. */
    public int hungCalls() {
        return hung.get();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        CountDownLatch current = healed;
        URI uri = request.uri();
        if (current.getCount() == 0 || !uri.getPath().contains("/leases")) {
            return;
        }
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        if (query.contains("watch") || query.contains("fieldSelector")) {
            builder.uri(URI.create("http://127.0.0.1:1" + uri.getRawPath() + "?" + query)); // refused at once
            return;
        }
        hung.incrementAndGet();
        try {
            current.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Lease call interrupted while partitioned", e);
        }
    }
}
