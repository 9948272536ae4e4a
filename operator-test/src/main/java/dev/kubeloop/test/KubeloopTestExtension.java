package dev.kubeloop.test;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Ends each test with the kit's checks of what its reconciles did ({@link KubeloopTestKit#testEnded}:
 * deletes of undeclared kinds), and tells the {@link TestCluster} when a test failed, for
 * {@link KubeloopTest#keepNamespaceOnFailure()}.
 */
final class KubeloopTestExtension implements AfterEachCallback, TestWatcher {

    @Override
    public void afterEach(ExtensionContext context) {
        boolean failed = context.getExecutionException().isPresent();
        ApplicationContext applicationContext;
        try {
            applicationContext = SpringExtension.getApplicationContext(context);
        } catch (IllegalStateException e) {
            if (failed) {
                return; // the context did not load: the test's own failure says why
            }
            throw e;
        }
        applicationContext.getBeanProvider(KubeloopTestKit.class).ifAvailable(kit -> kit.testEnded(failed));
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
        applicationContext.getBeanProvider(TestCluster.class).ifAvailable(TestCluster::testFailed);
    }
}
