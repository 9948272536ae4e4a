package dev.kubeloop.benchmarks.compare.server;

import dev.kubeloop.benchmarks.compare.common.GenerationTracker;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One contender run's view of the API server: an empty namespace with the CRD installed, a client
 * for the launcher's own writes, and every status write the server accepted, as a
 * {@link GenerationTracker} of {@code status.observedGeneration} per object name.
 */
public interface ServerSession extends AutoCloseable {

    /** The URL a contender connects to, or null when it must use the kubeconfig. */
    String masterUrl();

    String namespace();

    /** The launcher's client (for spec updates and creates while a contender runs). */
    KubernetesClient client();

    /** Status writes accepted by the server, timed when the server accepted them (or the launcher saw them). */
    GenerationTracker statusWrites();

    /** Creates {@code count} objects named {@code bench-00000...}, each at generation 1 without status. */
    void seed(int count) throws Exception;

    /** Frees what the server holds for requests it recorded (the mock keeps every request), and restarts {@link #requestCount()}. */
    default void forgetRecordedRequests() {
    }

    /** Requests the server received since {@link #forgetRecordedRequests()}; -1 where unknown (a real server). */
    default long requestCount() {
        return -1;
    }

    @Override
    void close();
}
