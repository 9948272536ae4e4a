package dev.kubeloop.testing;

import dev.kubeloop.runtime.manager.ControllerManager;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh mock API server (CRUD mode, Widget CRD registered) and an unstarted manager per test;
 * both are stopped after it. Tests register controllers, then start the manager.
 */
public abstract class MockClusterTestSupport {

    protected MockCluster cluster;
    protected KubernetesClient client;
    protected ControllerManager manager;

    @BeforeEach
    void startCluster() {
        cluster = MockCluster.withWidgetCrd();
        client = cluster.client();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterEach
    void stopCluster() {
        beforeStop();
        manager.stop();
        cluster.close();
    }

    /** The stored Widget's {@code status.message}; null without the Widget or its status. */
    protected String widgetStatusMessage(String namespace, String name) {
        Widget widget = client.resources(Widget.class).inNamespace(namespace).withName(name).get();
        return widget == null || widget.getStatus() == null ? null : widget.getStatus().getMessage();
    }

    /** Runs before the manager stops, e.g. to release reconciles a test holds. */
    protected void beforeStop() {
    }
}
