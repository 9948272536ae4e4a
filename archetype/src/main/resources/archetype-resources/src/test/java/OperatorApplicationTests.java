package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The README's run command in a test: the application on its embedded API server, given the
 * example ${kind} the README applies with kubectl, reconciles it: a reconcile returns and the
 * ${kind} has a status. Whatever the reconciler and the status become (the Ready condition is
 * {@code ${kind}ReconcilerTest}'s to check), so this test keeps holding for the operator you write.
 */
@SpringBootTest(properties = {"operator.embedded-api-server=on", "server.port=0"})
class OperatorApplicationTests {

    /** The results of a reconcile that returned: {@code Result.done()}, {@code Result.requeueAfter(...)}. */
    private static final Set<String> RETURNED = Set.of("success", "requeue_after");

    @Autowired
    KubernetesClient client;

    @Autowired
    MeterRegistry meters;

    @Test
    void theExampleIsReconciledOnTheEmbeddedApiServer() throws Exception {
        ${kind} example = client.getKubernetesSerialization()
                .unmarshal(Files.readString(Path.of("examples", "${kind.toLowerCase()}.yaml")), ${kind}.class);
        client.resource(example).create();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(client.resource(example).get().getStatus()).isNotNull();
            // controller-runtime's metric: reconciles that returned (no exception, no retry), done or to come
            // back later (a schedule's next time, say)
            assertThat(meters.find("controller_runtime_reconcile_total").counters().stream()
                    .filter(counter -> RETURNED.contains(counter.getId().getTag("result")))
                    .mapToDouble(Counter::count).sum()).isPositive();
        });
    }
}
