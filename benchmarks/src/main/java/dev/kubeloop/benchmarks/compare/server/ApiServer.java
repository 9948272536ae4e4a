package dev.kubeloop.benchmarks.compare.server;

/**
 * Where the contenders' objects live: the fabric8 mock server started in the launcher's JVM
 * ({@link MockApiServer}) or a real kube-apiserver from the kubeconfig ({@link KubeconfigApiServer}).
 */
public interface ApiServer extends AutoCloseable {

    /** A short description for the report, e.g. "fabric8 kubernetes-server-mock 7.8.0 (CRUD)". */
    String description();

    /** An empty namespace with the CRD installed, for one contender run. */
    ServerSession open(String runId) throws Exception;

    @Override
    default void close() {
    }
}
