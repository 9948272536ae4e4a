package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.ResourceReconciler;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;

/**
 * A {@link ResourceReconciler} bean as the auto-configuration sees it: its name, the instance, the
 * user's class (behind any AOP proxy), its {@link Reconciler} annotation (null if it has none) and
 * the primary type it reconciles (null if its type argument cannot be resolved). Public for
 * {@code ManifestsDescriber} only; not an API.
 */
public record ReconcilerBean(String beanName, ResourceReconciler<?> reconciler, Class<?> userClass, Reconciler annotation,
        Class<?> primaryType) {

    /** Every {@link ResourceReconciler} bean of the factory, in registration order. */
    public static List<ReconcilerBean> findAll(ListableBeanFactory beanFactory) {
        List<ReconcilerBean> result = new ArrayList<>();
        for (String name : beanFactory.getBeanNamesForType(ResourceReconciler.class)) {
            ResourceReconciler<?> reconciler = beanFactory.getBean(name, ResourceReconciler.class);
            Class<?> userClass = AopProxyUtils.ultimateTargetClass(reconciler);
            Reconciler annotation = beanFactory.findAnnotationOnBean(name, Reconciler.class);
            result.add(new ReconcilerBean(name, reconciler, userClass, annotation,
                    primaryType(beanFactory, name, userClass)));
        }
        return result;
    }

    /**
     * The {@code T} of {@code ResourceReconciler<T>}: from the bean definition first (a
     * {@code @Bean} method's generic return type, which also covers lambdas), then from the class.
     */
    private static Class<?> primaryType(ListableBeanFactory beanFactory, String name, Class<?> userClass) {
        if (beanFactory instanceof ConfigurableListableBeanFactory configurable
                && configurable.containsBeanDefinition(name)) {
            BeanDefinition definition = configurable.getMergedBeanDefinition(name);
            Class<?> declared = typeArgument(definition.getResolvableType());
            if (declared != null) {
                return declared;
            }
        }
        return typeArgument(ResolvableType.forClass(userClass));
    }

    /** The resolved {@code T}, or null for raw implementations, lambdas and unresolvable variables. */
    private static Class<?> typeArgument(ResolvableType type) {
        ResolvableType reconciler = type.as(ResourceReconciler.class);
        if (reconciler == ResolvableType.NONE || !reconciler.hasGenerics()
                || reconciler.getGeneric(0).getType() instanceof TypeVariable<?>) {
            return null;
        }
        return reconciler.resolveGeneric(0);
    }
}
