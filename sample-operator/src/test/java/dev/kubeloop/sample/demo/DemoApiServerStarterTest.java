package dev.kubeloop.sample.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The demo's API server starts before the context refreshes and becomes its {@code demoApiServer}
 * bean; out of demo mode nothing starts; a server the refresh never claimed is closed with the
 * context.
 */
class DemoApiServerStarterTest {

    private static AnnotationConfigApplicationContext context(String demo) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of("sample.demo", demo)));
        new DemoApiServerStarter().initialize(context);
        return context;
    }

    private static DemoApiServerStarter.Start started(AnnotationConfigApplicationContext context) {
        return (DemoApiServerStarter.Start) context.getBeanFactory().getSingleton(DemoApiServerStarter.BEAN);
    }

    @Test
    void theServerStartedBeforeTheRefreshIsTheDemoApiServerBean() {
        try (AnnotationConfigApplicationContext context = context("on")) {
            DemoApiServerStarter.Start start = started(context);
            context.register(DemoConfiguration.class);
            context.refresh();

            assertThat(context.getBean(DemoApiServer.class)).isSameAs(start.server().join());
            assertThat(context.getBean(DemoApiServer.class).client().apiextensions().v1().customResourceDefinitions()
                    .withName("websites.sample.kubeloop.dev").get()).as("the CRD is applied").isNotNull();
        }
    }

    @Test
    void outOfDemoModeNothingStarts() {
        try (AnnotationConfigApplicationContext context = context("off")) {
            assertThat(context.getBeanFactory().containsSingleton(DemoApiServerStarter.BEAN)).isFalse();
        }
    }

    @Test
    void aServerTheRefreshNeverClaimedIsClosedWithTheContext() {
        AnnotationConfigApplicationContext context = context("on");
        DemoApiServer server = started(context).server().join();
        URI version = URI.create(server.url()).resolve("/version");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        context.refresh();
        context.close();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(
                () -> http.send(HttpRequest.newBuilder(version).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding())).isInstanceOf(IOException.class));
    }
}
