package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.ResourceLoader;

/**
 * Every {@code kubeloop.*.enabled} switch is one {@link OnBooleanPropertyCondition}: its default
 * when unset, the value when set (as Spring converts booleans), the outcome's words, and a value
 * that is not a boolean failing with the property's name.
 */
class OnBooleanPropertyConditionTest {

    @ParameterizedTest(name = "default {0}, value ''{1}'' -> {2}: {3}")
    @CsvSource(nullValues = "unset", value = {
        "true,  unset, true,  kubeloop.test.enabled is not false",
        "true,  false, false, kubeloop.test.enabled is false",
        "true,  off,   false, kubeloop.test.enabled is false",
        "true,  TRUE,  true,  kubeloop.test.enabled is not false",
        "false, unset, false, kubeloop.test.enabled is not true",
        "false, true,  true,  kubeloop.test.enabled is true",
        "false, yes,   true,  kubeloop.test.enabled is true",
        "false, 0,     false, kubeloop.test.enabled is not true"})
    void theValueElseTheDefaultDecides(boolean whenUnset, String value, boolean on, String message) {
        Condition condition = new Condition(whenUnset);
        Environment environment = environment(value);

        assertThat(condition.isOn(environment)).isEqualTo(on);
        ConditionOutcome outcome = condition.getMatchOutcome(context(environment), null);
        assertThat(outcome.isMatch()).isEqualTo(on);
        assertThat(outcome.getMessage()).isEqualTo(message);
    }

    @ParameterizedTest
    @CsvSource({"true", "false"})
    void aValueThatIsNoBooleanFailsNamingTheProperty(boolean whenUnset) {
        assertThatThrownBy(() -> new Condition(whenUnset).isOn(environment("ture")))
                .isInstanceOf(KubeloopConfigurationException.class)
                .hasMessageContaining("Property kubeloop.test.enabled has an invalid value 'ture'")
                .satisfies(failure -> assertThat(((KubeloopConfigurationException) failure).action())
                        .contains("or remove it (the test default)"));
    }

    private static final class Condition extends OnBooleanPropertyCondition {
        Condition(boolean whenUnset) {
            super("kubeloop.test.enabled", whenUnset, "(the test default)");
        }
    }

    private static Environment environment(String value) {
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> properties = new HashMap<>();
        if (value != null) {
            properties.put("kubeloop.test.enabled", value);
        }
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }

    private static ConditionContext context(Environment environment) {
        return new ConditionContext() {
            @Override
            public BeanDefinitionRegistry getRegistry() {
                throw new UnsupportedOperationException();
            }

            @Override
            public ConfigurableListableBeanFactory getBeanFactory() {
                return null;
            }

            @Override
            public Environment getEnvironment() {
                return environment;
            }

            @Override
            public ResourceLoader getResourceLoader() {
                return new DefaultResourceLoader();
            }

            @Override
            public ClassLoader getClassLoader() {
                return getClass().getClassLoader();
            }
        };
    }
}
