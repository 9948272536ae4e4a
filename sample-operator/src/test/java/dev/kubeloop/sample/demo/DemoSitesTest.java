package dev.kubeloop.sample.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.sample.website.Website;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;

/**
 * The demo's Websites are created once the operator is ready; a stop that overtakes that (a SIGTERM
 * on the "Started" line closes the embedded server's client) is a stop, not a failed start.
 */
class DemoSitesTest {

    private final GenericApplicationContext context = new GenericApplicationContext();

    @Test
    void theReadyOperatorGetsBothDemoSites() {
        try (DemoApiServer server = new DemoApiServer()) {
            new DemoSites(server).onApplicationEvent(ready());

            assertThat(server.client().resources(Website.class).inNamespace(DemoSites.NAMESPACE).list().getItems())
                    .extracting(site -> site.getMetadata().getName())
                    .containsExactlyInAnyOrderElementsOf(DemoSites.SITES);
        }
    }

    @Test
    void aStopThatClosedTheClientFirstEndsTheCreationQuietly() {
        DemoApiServer server = new DemoApiServer();
        DemoSites sites = new DemoSites(server);
        sites.onApplicationEvent(new ContextClosedEvent(context));
        server.close(); // what destroying the beans does next

        assertThatCode(() -> sites.onApplicationEvent(ready())).doesNotThrowAnyException();
    }

    @Test
    void withoutAStopAFailedCreationStillFailsTheStart() {
        DemoApiServer server = new DemoApiServer();
        DemoSites sites = new DemoSites(server);
        server.close();

        assertThatThrownBy(() -> sites.onApplicationEvent(ready())).isInstanceOf(RuntimeException.class);
    }

    private ApplicationReadyEvent ready() {
        return new ApplicationReadyEvent(new SpringApplication(), new String[0], context, Duration.ZERO);
    }
}
