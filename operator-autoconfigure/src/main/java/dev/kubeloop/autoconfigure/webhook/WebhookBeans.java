package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.api.webhook.Defaulter;
import dev.kubeloop.api.webhook.SpokeConverter;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.TypeVariable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;

/**
 * The application's {@link Validator}, {@link Defaulter} and {@link SpokeConverter} beans as
 * {@link Webhooks}: each bean's resource types come from its type arguments, read from the bean
 * definition (a {@code @Bean} method's generic return type, which covers lambdas) and then from its
 * class, as for reconcilers. A bean whose types cannot be resolved, or two for one type, fail
 * start-up naming the beans. Stateless. Public for {@code ManifestsDescriber} only; not an API.
 */
public final class WebhookBeans {

    private WebhookBeans() {
    }

    /** True if the factory has any validator, defaulter or converter bean (without creating them). */
    public static boolean present(ListableBeanFactory beanFactory) {
        return beanFactory.getBeanNamesForType(Validator.class, true, false).length > 0
                || beanFactory.getBeanNamesForType(Defaulter.class, true, false).length > 0
                || beanFactory.getBeanNamesForType(SpokeConverter.class, true, false).length > 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Webhooks collect(ListableBeanFactory beanFactory, KubernetesSerialization serialization) {
        Webhooks.Builder builder = Webhooks.builder(serialization);
        try {
            for (String name : beanFactory.getBeanNamesForType(Validator.class)) {
                Validator<?> validator = beanFactory.getBean(name, Validator.class);
                builder.validator((Class) types(beanFactory, name, validator, Validator.class)[0], (Validator) validator);
            }
            for (String name : beanFactory.getBeanNamesForType(Defaulter.class)) {
                Defaulter<?> defaulter = beanFactory.getBean(name, Defaulter.class);
                builder.defaulter((Class) types(beanFactory, name, defaulter, Defaulter.class)[0], (Defaulter) defaulter);
            }
            for (String name : beanFactory.getBeanNamesForType(SpokeConverter.class)) {
                SpokeConverter<?, ?> converter = beanFactory.getBean(name, SpokeConverter.class);
                Class<?>[] types = types(beanFactory, name, converter, SpokeConverter.class);
                builder.converter((Class) types[0], (Class) types[1], (SpokeConverter) converter);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException(e.getMessage() + ".",
                    "Keep one validator and one defaulter per resource type, and per kind one hub that every "
                            + "converter converts to.", e);
        }
    }

    /** The resolved type arguments of {@code role} for the bean. */
    private static Class<?>[] types(ListableBeanFactory beanFactory, String name, Object bean, Class<?> role) {
        ResolvableType declared = ResolvableType.NONE;
        if (beanFactory instanceof ConfigurableListableBeanFactory configurable
                && configurable.containsBeanDefinition(name)) {
            declared = configurable.getMergedBeanDefinition(name).getResolvableType().as(role);
        }
        if (!resolved(declared)) {
            declared = ResolvableType.forClass(AopProxyUtils.ultimateTargetClass(bean)).as(role);
        }
        if (!resolved(declared)) {
            throw new KubeloopConfigurationException("Bean '" + name + "' (" + bean.getClass().getName() + ") is a "
                    + role.getSimpleName() + " whose resource type cannot be resolved.",
                    "Implement " + role.getSimpleName() + " with concrete type arguments (class WebsiteValidator "
                            + "implements Validator<Website>), or declare the @Bean method's return type with them.");
        }
        Class<?>[] types = new Class<?>[declared.getGenerics().length];
        for (int i = 0; i < types.length; i++) {
            types[i] = declared.resolveGeneric(i);
            if (!HasMetadata.class.isAssignableFrom(types[i])) {
                throw new KubeloopConfigurationException("Bean '" + name + "' is a " + role.getSimpleName()
                        + " of " + types[i].getName() + ", which is not a Kubernetes resource class.",
                        "Use a fabric8 model class or a CustomResource subclass with @Group and @Version.");
            }
        }
        return types;
    }

    private static boolean resolved(ResolvableType type) {
        if (type == ResolvableType.NONE || !type.hasGenerics()) {
            return false;
        }
        for (ResolvableType generic : type.getGenerics()) {
            if (generic.getType() instanceof TypeVariable<?> || generic.resolve() == null) {
                return false;
            }
        }
        return true;
    }
}
