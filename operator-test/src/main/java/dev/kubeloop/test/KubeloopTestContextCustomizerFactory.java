package dev.kubeloop.test;

import java.util.List;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/** Gives every {@link KubeloopTest} class its own {@link KubeloopTestContextCustomizer}. */
final class KubeloopTestContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        MergedAnnotation<KubeloopTest> test = MergedAnnotations
                .from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY).get(KubeloopTest.class);
        if (!test.isPresent()) {
            return null;
        }
        return new KubeloopTestContextCustomizer(testClass, List.of(test.getStringArray("crds")),
                test.getBoolean("keepNamespaceOnFailure"), test.getBoolean("webhooks"),
                test.getBoolean("failOnUndeclaredDeletes"));
    }
}
