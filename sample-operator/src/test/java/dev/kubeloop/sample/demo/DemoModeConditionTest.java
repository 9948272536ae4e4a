package dev.kubeloop.sample.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.mock.EmbeddedApiServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.mock.env.MockEnvironment;

/**
 * Demo mode without the embedded API server, as in the packaged jar (an optional dependency that
 * Spring Boot's repackage leaves out): {@code auto} never starts it, {@code on} fails saying how to
 * run the demo; with it, {@code on} starts it.
 */
class DemoModeConditionTest {

    private final FilteredClassLoader packagedJar = new FilteredClassLoader(EmbeddedApiServer.class);

    @Test
    void autoIsOffWithoutTheEmbeddedApiServer() {
        MockEnvironment environment = new MockEnvironment().withProperty("sample.demo", "auto");

        assertThat(DemoModeCondition.outcome(environment, packagedJar).isMatch()).isFalse();
        assertThat(DemoModeCondition.outcome(environment, packagedJar).getMessage())
                .contains("no embedded API server in this jar");
    }

    @Test
    void onFailsWithoutTheEmbeddedApiServerSayingHowToRunTheDemo() {
        MockEnvironment environment = new MockEnvironment().withProperty("sample.demo", "on");

        assertThatThrownBy(() -> DemoModeCondition.outcome(environment, packagedJar))
                .hasMessageContaining("sample.demo=on needs the embedded API server")
                .hasMessageContaining("spring-boot:run");
    }

    @Test
    void onStartsItWhenItIsOnTheClassPath() {
        MockEnvironment environment = new MockEnvironment().withProperty("sample.demo", "on");

        assertThat(DemoModeCondition.outcome(environment, getClass().getClassLoader()).isMatch()).isTrue();
    }
}
