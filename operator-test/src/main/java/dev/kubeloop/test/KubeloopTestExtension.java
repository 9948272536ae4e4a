package dev.kubeloop.test;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/** Tells the {@link TestCluster} when a test failed, for {@link KubeloopTest#keepNamespaceOnFailure()}. */
final class KubeloopTestExtension implements TestWatcher {

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
        applicationContext.getBeanProvider(TestCluster.class).ifAvailable(TestCluster::testFailed);
    }
}
