package dev.kubeloop.sample.e2e;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteReconciler;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Lets a test act inside the Website reconciler, just before the real reconcile runs: run an
 * action once for one Website (the reconciler then works on what it read before the action), hold
 * every reconcile at its start until released, or see every reconcile's object before and after. The reconciler bean is wrapped in a proxy; the
 * class and annotation the runtime reads stay the reconciler's. Import {@link Config} to install it.
 */
final class ReconcileHook implements BeanPostProcessor {

    /** Never hold a worker longer than this, whatever the test does. */
    private static final Duration MAX_HOLD = Duration.ofSeconds(60);

    private final Map<String, Consumer<Website>> once = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile Around around;

    /** Sees every reconcile: the Website it starts with, and the same object (as the reconcile left it) after. */
    interface Around {
        void before(Website site);

        void after(Website site);

        /** The reconcile threw {@code error} (it is thrown on to the runtime after this). */
        default void failed(Website site, Throwable error) {
        }
    }

    /** From now on, {@code around} sees every reconcile. */
    void aroundEveryReconcile(Around around) {
        this.around = around;
    }

    /** Runs {@code action} at the start of the next reconcile of the Website named {@code name}. */
    void beforeNextReconcileOf(String name, Consumer<Website> action) {
        once.put(name, action);
    }

    /** The actions that have not run yet, by Website name. */
    Map<String, Consumer<Website>> pending() {
        return Map.copyOf(once);
    }

    /** From now on, every reconcile waits at its start until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    /** Lets every held reconcile go on. */
    void release() {
        gate.countDown();
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (!(bean instanceof WebsiteReconciler)) {
            return bean;
        }
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.addAdvice((MethodInterceptor) invocation -> {
            if (invocation.getMethod().getName().equals("reconcile")
                    && invocation.getArguments()[0] instanceof Website site) {
                gate.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
                Consumer<Website> action = once.remove(site.getMetadata().getName());
                if (action != null) {
                    action.accept(site);
                }
                Around seeing = around;
                if (seeing != null) {
                    seeing.before(site);
                    Object result;
                    try {
                        result = invocation.proceed();
                    } catch (Throwable error) {
                        seeing.failed(site, error);
                        throw error;
                    }
                    seeing.after(site);
                    return result;
                }
            }
            return invocation.proceed();
        });
        return proxy.getProxy(bean.getClass().getClassLoader());
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Config {
        @Bean
        static ReconcileHook reconcileHook() {
            return new ReconcileHook();
        }
    }
}
