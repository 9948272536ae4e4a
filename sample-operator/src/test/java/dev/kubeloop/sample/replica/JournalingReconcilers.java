package dev.kubeloop.sample.replica;

import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps every reconciler bean so that each call of {@code reconcile} and {@code cleanup} is
 * journaled: {@code enter <key>} before it, {@code exit <key> <outcome>} after it, the outcome
 * being the result's kind ({@code done}, {@code requeue_after}, ...), {@code interrupted}, or
 * {@code error:<exception>}. Optionally each call first waits {@code delay}, interruptibly or not
 * (then the interrupt is kept for what comes after, as in a reconcile busy computing), as a
 * slow reconcile would, so that reconciles are in flight when a test strikes. The class and
 * annotation the runtime reads stay the reconciler's (the proxy implements its interfaces).
 */
final class JournalingReconcilers implements BeanPostProcessor {

    private static final Set<String> RECONCILE_METHODS = Set.of("reconcile", "cleanup");

    private final JournalWriter journal;
    private final Duration delay;
    private final boolean ignoresInterrupts;

    JournalingReconcilers(JournalWriter journal, Duration delay, boolean ignoresInterrupts) {
        this.ignoresInterrupts = ignoresInterrupts;
        this.journal = journal;
        this.delay = delay;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof ResourceReconciler<?>)) {
            return bean;
        }
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.addAdvice((MethodInterceptor) invocation -> {
            if (!RECONCILE_METHODS.contains(invocation.getMethod().getName())
                    || !(invocation.getArguments()[0] instanceof HasMetadata object)) {
                return invocation.proceed();
            }
            String key = object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
            journal.write(ReconcileJournal.ENTER, key);
            String outcome = "unknown";
            try {
                if (!delay.isZero() && ignoresInterrupts) {
                    sleepThroughInterrupts(delay);
                } else if (!delay.isZero()) {
                    Thread.sleep(delay.toMillis());
                }
                Object result = invocation.proceed();
                outcome = result instanceof Result r ? r.kind().name().toLowerCase(Locale.ROOT) : "done";
                return result;
            } catch (Throwable e) {
                outcome = interrupted(e) ? ReconcileJournal.INTERRUPTED : "error:" + e.getClass().getSimpleName();
                throw e;
            } finally {
                journal.write(ReconcileJournal.EXIT, key, outcome);
            }
        });
        return proxy.getProxy(bean.getClass().getClassLoader());
    }

    /** Sleeps {@code delay} on the monotonic clock whatever interrupts it; sets the interrupt again after. */
    private static void sleepThroughInterrupts(Duration delay) {
        long end = System.nanoTime() + delay.toNanos();
        boolean interrupted = false;
        for (long left = delay.toNanos(); left > 0; left = end - System.nanoTime()) {
            try {
                java.util.concurrent.TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** fabric8 wraps the interrupt of a blocking call; the flag may be set or cleared by then. */
    private static boolean interrupted(Throwable e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause instanceof InterruptedIOException) {
                return true;
            }
        }
        return false;
    }
}
