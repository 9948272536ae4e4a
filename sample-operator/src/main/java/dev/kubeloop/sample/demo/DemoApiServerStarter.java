package dev.kubeloop.sample.demo;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts the demo's embedded API server on a thread of its own as soon as the application context
 * exists, before the context refreshes: starting it (a web server, a client, the CRD) and building
 * the context (reading the configuration classes, the web server, actuator) then overlap, instead
 * of the refresh waiting for the server when it gets to {@link DemoConfiguration}. Registered in
 * {@code META-INF/spring.factories}; does nothing unless demo mode applies
 * ({@link DemoModeCondition}).
 *
 * <p>The server is handed over once, to the {@code demoApiServer} bean, which closes it with the
 * context; one never handed over (the refresh failed first) is closed when the context closes.
 */
public final class DemoApiServerStarter implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    static final String BEAN = "demoApiServerStart";
    static final String THREAD_NAME = "demo-api-server-start";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (!DemoModeCondition.outcome(context.getEnvironment(), context.getClassLoader()).isMatch()
                || !(context.getBeanFactory() instanceof DefaultListableBeanFactory beans)) {
            return;
        }
        Start start = new Start();
        Thread thread = new Thread(start::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        beans.registerSingleton(BEAN, start);
        beans.registerDisposableBean(BEAN + ".unclaimed", start::closeUnclaimed);
    }

    /**
     * A server starting in the background. State ownership: {@code server} is completed once by the
     * starting thread; {@code claimed} is guarded by {@code this}.
     */
    static final class Start {
        private final CompletableFuture<DemoApiServer> server = new CompletableFuture<>();
        private boolean claimed;

        private void run() {
            try {
                server.complete(new DemoApiServer());
            } catch (RuntimeException | Error e) {
                server.completeExceptionally(e);
            }
        }

        /** Waits for the server; from then on its owner closes it. */
        DemoApiServer claim() {
            synchronized (this) {
                claimed = true;
            }
            try {
                return server.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the demo API server started", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException("the demo API server did not start", e.getCause());
            }
        }

        /** The server once started, for tests. */
        CompletableFuture<DemoApiServer> server() {
            return server;
        }

        private void closeUnclaimed() {
            synchronized (this) {
                if (claimed) {
                    return;
                }
            }
            server.thenAccept(DemoApiServer::close);
        }
    }
}
