package dev.kubeloop.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A client that stops its watches while the objects they watch keep changing (an operator shutting
 * down while its leader releases the Lease) leaves the embedded server serving and closable: the
 * mock's own end-of-watch handling waits on its event loop for a send that needs that event loop
 * ({@link WatchClosingOffTheEventLoop}), which made the sample's tests fail with "Unable to close
 * MockWebServer".
 */
class WatchClosingTest {

    @Test
    void watchesClosedWhileTheirEventsAreSentLeaveTheServerServingAndClosable() throws Exception {
        for (int round = 0; round < 5; round++) {
            EmbeddedApiServer server = EmbeddedApiServer.start();
            var configMaps = server.client().configMaps().inNamespace("test");
            configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("busy").endMetadata().build()).create();
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger writes = new AtomicInteger();
            Thread writer = new Thread(() -> {
                while (writing.get()) {
                    configMaps.withName("busy").edit(c -> new ConfigMapBuilder(c).addToData("n",
                            String.valueOf(writes.incrementAndGet())).build());
                }
            }, "watch-closing-test-writer");
            List<Watch> watches = new ArrayList<>();
            CountDownLatch eventsSeen = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                watches.add(configMaps.watch(new Watcher<ConfigMap>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                        eventsSeen.countDown();
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                }));
            }
            writer.start();
            assertThat(eventsSeen.await(30, TimeUnit.SECONDS)).as("every watch received events").isTrue();

            watches.forEach(Watch::close);
            int before = writes.get();
            // the server still answers (a stalled event loop left requests on its connections unanswered)
            while (writes.get() < before + 20) {
                assertThat(writer.isAlive()).as("the writer, whose edits the server answers").isTrue();
                Thread.onSpinWait();
            }
            writing.set(false);
            writer.join();

            assertThatCode(server::close).as("round %d: closing the server", round).doesNotThrowAnyException();
        }
    }
}
