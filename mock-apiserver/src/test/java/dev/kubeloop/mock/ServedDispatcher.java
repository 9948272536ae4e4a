package dev.kubeloop.mock;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import java.util.HashMap;

/** A fabric8 mock server that answers through one dispatcher, and a client of it: what the dispatcher tests start. */
record ServedDispatcher(KubernetesMockServer server, KubernetesClient client) implements AutoCloseable {

    static ServedDispatcher of(Dispatcher dispatcher) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                dispatcher, false);
        server.init();
        return new ServedDispatcher(server, server.createClient());
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
