package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fence on the requests of one reconcile: every request that may change something (any method
 * but GET, HEAD, OPTIONS) is checked, immediately before it leaves, against {@code holds} (does
 * this replica still hold what admitted the reconcile: its Lease, its bucket, judged on the
 * monotonic clock), and refused if not. Reads pass: a paused replica's read harms nobody.
 *
 * <p>Why at the HTTP client: a replica paused past its Lease (a long GC pause, a frozen VM) resumes
 * with its timers as late as its workers, so a check made only when a timer fires comes after the
 * writes it should stop. Checked in fabric8's interceptor chain, the check covers every write the
 * reconcile makes, the runtime's and the reconciler's own through {@code context.client()}, and
 * every attempt of it: fabric8 retries a request (after a 5xx, a 429 or a broken connection) on
 * its own scheduler thread, through the interceptors again. A retry refused there cannot fail
 * fabric8's waiting future (fabric8 drops what its scheduled retry throws), so the reconcile's
 * thread is interrupted instead, which ends that wait.
 *
 * <p>What it cannot stop: a request that passed the check and is then delayed before its bytes
 * leave (a pause between the two), or that was on the wire when the pause began; docs/reliability.md
 * ("Paused replicas") says what follows.
 *
 * <p>State ownership: {@code ended} is set by the reconcile's thread when the reconcile ends and
 * read by whichever thread sends a retry, both under {@code this}; the rest is final.
 */
public final class RequestFence implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RequestFence.class);
    /** Methods that change nothing on the API server. */
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

    private final BooleanSupplier holds;
    private final Thread owner;
    private final KubernetesClient client;
    /** The spans of the reconcile's requests, when it is traced; else null. */
    private final RequestSpans spans;
    private boolean ended;

    RequestFence(BooleanSupplier holds, FencedClients clients, RequestSpans spans) {
        this.holds = Objects.requireNonNull(holds, "holds");
        this.owner = Thread.currentThread();
        this.spans = spans;
        this.client = clients.bind(this, spans);
    }

    /** The client of this reconcile: the manager's, with every write checked against this fence. */
    public KubernetesClient client() {
        return client;
    }

    /** The reconcile ended: a retry still under way no longer interrupts its thread. */
    @Override
    public synchronized void close() {
        ended = true;
        if (spans != null) {
            spans.close();
        }
    }

    /** Throws if {@code request} may change something and this replica no longer holds what admitted the reconcile. */
    void check(HttpRequest request) {
        if (READS.contains(request.method()) || holds.getAsBoolean()) {
            return;
        }
        String what = request.method() + " " + request.uri().getPath();
        if (Thread.currentThread() != owner) {
            // a retry on fabric8's scheduler: what is thrown here is dropped, so end the owner's wait instead
            synchronized (this) {
                if (!ended) {
                    owner.interrupt();
                }
            }
            log.warn("Refused {} from {} (a retry of fabric8's, or a thread of the reconciler's): this replica no "
                    + "longer holds the Lease or bucket of the reconcile that sent it; interrupted that reconcile", what,
                    Thread.currentThread().getName());
        }
        throw new Refused(what);
    }

    /** A write the fence kept from leaving. */
    public static final class Refused extends KubernetesClientException {

        private static final long serialVersionUID = 1L;

        Refused(String what) {
            super(what + " not sent: this replica no longer holds the Lease or bucket that admitted the reconcile "
                    + "(a pause past its renew deadline, or it was fenced)");
        }
    }

    /** The interceptor on the manager's fenced HTTP client: finds the reconcile's fence among the request's tags. */
    static final class Check implements Interceptor {

        static final String NAME = "kubeloop-request-fence";

        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            RequestFence fence = tags.getTag(RequestFence.class);
            if (fence != null) {
                fence.check(request);
            }
        }
    }
}
