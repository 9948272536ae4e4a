package dev.kubeloop.autoconfigure.controller;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stop by SIGTERM exits 0 once the shutdown has run, as controller-runtime's signal handler
 * does, instead of the JVM's 143 (128 + 15). SIGTERM is how a normal stop is asked for (the
 * kubelet, a process manager, an IDE's stop button, {@code spring-boot:run}'s own stop), and the
 * shutdown hooks it runs are the graceful shutdown: reporting it as a failure makes
 * {@code ./mvnw spring-boot:run} end in {@code BUILD FAILURE ... exit code: 143}, and a pod's
 * container end in {@code Error}. A second SIGTERM while the first one's shutdown is running halts
 * at once with 1, also as controller-runtime does. {@code kubeloop.exit-zero-on-sigterm=false}
 * keeps the JVM's own handling.
 *
 * <p>Installed once per JVM through {@code sun.misc.Signal} (module jdk.unsupported), by reflection
 * so that a JVM without it keeps its default handling. State: the two flags, set once each.
 */
final class ExitZeroOnSigterm {

    private static final Logger log = LoggerFactory.getLogger(ExitZeroOnSigterm.class);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private final AtomicBoolean terminating = new AtomicBoolean();
    private final IntConsumer exit;
    private final IntConsumer halt;

    ExitZeroOnSigterm(IntConsumer exit, IntConsumer halt) {
        this.exit = exit;
        this.halt = halt;
    }

    /** Installs the handler for this JVM unless it is installed already; false when it cannot be. */
    static boolean install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return true;
        }
        ExitZeroOnSigterm handler = new ExitZeroOnSigterm(System::exit, Runtime.getRuntime()::halt);
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> signalHandler = Class.forName("sun.misc.SignalHandler");
            InvocationHandler onSignal = (proxy, method, args) -> switch (method.getName()) {
                case "handle" -> {
                    handler.sigterm();
                    yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "ExitZeroOnSigterm";
            };
            Object proxy = Proxy.newProxyInstance(ExitZeroOnSigterm.class.getClassLoader(),
                    new Class<?>[] {signalHandler}, onSignal);
            signal.getMethod("handle", signal, signalHandler)
                    .invoke(null, signal.getConstructor(String.class).newInstance("TERM"), proxy);
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            log.debug("SIGTERM keeps the JVM's handling (exit code 143): {}", e.toString());
            return false;
        }
    }

    /** Called on the JVM's signal thread, a new one per signal. */
    void sigterm() {
        if (terminating.compareAndSet(false, true)) {
            exit.accept(0); // runs the shutdown hooks (Spring's graceful shutdown), then ends the JVM
        } else {
            halt.accept(1); // the hooks are still running: a second signal means now
        }
    }
}
