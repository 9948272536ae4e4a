package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.api.Reconciler;
import java.util.HashSet;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.context.annotation.AnnotationBeanNameGenerator;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.MethodMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * Registers every {@link Reconciler @Reconciler} class in the application's auto-configuration
 * packages (those of its {@code @SpringBootApplication}) as a bean, the way Spring Data finds
 * repositories. {@code @Reconciler} is deliberately not a Spring stereotype (the API stays free of
 * Spring), so component scanning does not see these classes; this registrar does.
 *
 * <p>A class that is already a bean (declared with {@code @Bean}, or annotated {@code @Component}
 * as well) is not registered twice.
 */
final class ReconcilerScanRegistrar
        implements ImportBeanDefinitionRegistrar, BeanFactoryAware, EnvironmentAware, ResourceLoaderAware {

    private BeanFactory beanFactory;
    private Environment environment;
    private ResourceLoader resourceLoader;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setResourceLoader(ResourceLoader resourceLoader) {
        this.resourceLoader = resourceLoader;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata, BeanDefinitionRegistry registry) {
        if (!AutoConfigurationPackages.has(beanFactory)) {
            return;
        }
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false,
                environment);
        scanner.setResourceLoader(resourceLoader);
        scanner.addIncludeFilter(new AnnotationTypeFilter(Reconciler.class));
        Set<String> existing = beanClassNames(registry);
        for (String basePackage : AutoConfigurationPackages.get(beanFactory)) {
            for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
                if (existing.add(candidate.getBeanClassName())) {
                    String name = AnnotationBeanNameGenerator.INSTANCE.generateBeanName(candidate, registry);
                    if (registry.containsBeanDefinition(name)) {
                        name = candidate.getBeanClassName();
                    }
                    registry.registerBeanDefinition(name, candidate);
                }
            }
        }
    }

    /** The classes of the beans defined so far, by class or by {@code @Bean} method return type. */
    private static Set<String> beanClassNames(BeanDefinitionRegistry registry) {
        Set<String> names = new HashSet<>();
        for (String name : registry.getBeanDefinitionNames()) {
            BeanDefinition definition = registry.getBeanDefinition(name);
            if (definition.getBeanClassName() != null) {
                names.add(definition.getBeanClassName());
            }
            if (definition instanceof AnnotatedBeanDefinition annotated) {
                MethodMetadata factoryMethod = annotated.getFactoryMethodMetadata();
                if (factoryMethod != null) {
                    names.add(factoryMethod.getReturnTypeName());
                }
            }
        }
        return names;
    }
}
