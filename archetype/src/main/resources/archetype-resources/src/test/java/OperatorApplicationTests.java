package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The README's run command in a test: the application on its embedded API server, given the
 * example ${kind} the README applies with kubectl, reconciles it to Ready.
 */
@SpringBootTest(properties = {"operator.embedded-api-server=on", "server.port=0"})
class OperatorApplicationTests {

    @Autowired
    KubernetesClient client;

    @Test
    void theExampleIsReconciledOnTheEmbeddedApiServer() throws Exception {
        ${kind} example = client.getKubernetesSerialization()
                .unmarshal(Files.readString(Path.of("examples", "${kind.toLowerCase()}.yaml")), ${kind}.class);
        client.resource(example).create();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            ${kind} reconciled = client.resource(example).get();
            assertThat(reconciled.getStatus()).isNotNull();
            assertThat(reconciled.getStatus().getConditions())
                    .anySatisfy(ready -> assertThat(ready.getStatus()).isEqualTo("True"));
        });
    }
}
