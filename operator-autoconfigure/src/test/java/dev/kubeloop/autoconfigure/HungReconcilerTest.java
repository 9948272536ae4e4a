package dev.kubeloop.autoconfigure;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.endpoint.KubeloopEndpoint;
import dev.kubeloop.autoconfigure.endpoint.KubeloopEndpointAutoConfiguration;
import dev.kubeloop.autoconfigure.health.KubeloopHealthAutoConfiguration;
import dev.kubeloop.autoconfigure.metrics.KubeloopMetricsAutoConfiguration;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A reconcile that never returns (it waits on a latch nobody counts down), in an application
 * configured through properties, with one worker. With {@code reconcile-timeout} set, it is
 * interrupted at the timeout, counted, retried with backoff, and the worker goes on with other
 * keys in between. Without a timeout it holds its worker, and the operator says so: the longest
 * running processor gauge grows, the introspection endpoint lists the key in flight with its age,
 * and health stays UP (a restart would not cure a reconciler bug, and would restart in a loop).
 */
class HungReconcilerTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final int OTHERS = 5;

    private final CountDownLatch neverCountedDown = new CountDownLatch(1);
    private final CountDownLatch hungStarted = new CountDownLatch(1);
    /** Cleared to let the hung key's next attempt return. */
    private final AtomicBoolean hanging = new AtomicBoolean(true);
    /** When each interrupted attempt of the hung key caught its interrupt. */
    private final List<Long> interruptedAt = new CopyOnWriteArrayList<>();
    private final RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
        if (widget.getMetadata().getName().equals("hung") && hanging.get()) {
            hungStarted.countDown();
            try {
                neverCountedDown.await();
            } catch (InterruptedException e) {
                interruptedAt.add(System.nanoTime());
                throw e;
            }
        }
        return Result.done();
    });

    private MockCluster cluster;
    private ApplicationContextRunner runner;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                        KubeloopMetricsAutoConfiguration.class, KubeloopHealthAutoConfiguration.class,
                        KubeloopEndpointAutoConfiguration.class, EndpointAutoConfiguration.class))
                .withBean(KubernetesClient.class, cluster::client)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("hungReconciler", RecordingReconciler.class, () -> reconciler)
                .withPropertyValues("kubeloop.shutdown-timeout=5s");
    }

    @AfterEach
    void tearDown() {
        neverCountedDown.countDown();
        cluster.close();
    }

    @Test
    void aReconcileThatNeverReturnsIsInterruptedAtTheTimeoutCountedRetriedWithBackoffAndFreesTheWorker() {
        runner.withPropertyValues("kubeloop.reconcilers.widget.reconcile-timeout=" + TIMEOUT.toMillis() + "ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    Controller<?> controller = context.getBean(ControllerManager.class).controller("widget")
                            .orElseThrow();
                    assertThat(controller.config().workers()).isEqualTo(1);
                    assertThat(controller.config().reconcileTimeout()).isEqualTo(TIMEOUT);

                    create("hung");
                    eventually().until(() -> timeouts(registry) >= 1);
                    // the one worker is free between the hung key's attempts: the others get reconciled
                    for (int i = 1; i <= OTHERS; i++) {
                        create("other-" + i);
                    }
                    eventually().until(() -> othersReconciled() == OTHERS && timeouts(registry) >= 3);
                    hanging.set(false);
                    eventually().until(() -> reconciler.count("ns/hung") > interruptedAt.size()
                            && controller.queueStats().idle());

                    List<Call> attempts = reconciler.callsFor("ns/hung");
                    int timedOut = attempts.size() - 1;
                    List<Long> gaps = new ArrayList<>();
                    for (int i = 1; i < attempts.size(); i++) {
                        long gap = attempts.get(i).startedNanos() - interruptedAt.get(i - 1);
                        gaps.add(TimeUnit.NANOSECONDS.toMillis(gap));
                        // client-go's default backoff: 5 ms doubling per retry
                        assertThat(Duration.ofNanos(gap)).as("wait before retry %d", i)
                                .isGreaterThanOrEqualTo(Duration.ofMillis(5L << (i - 1)));
                    }
                    System.out.printf("[reliability] hung-reconciler: 1 worker, reconcile-timeout %d ms, 1 reconcile "
                            + "blocking forever + %d other keys: timeouts %d (interrupted %d), retries %d, waits "
                            + "before each retry %s ms (backoff from 5 ms doubling), others reconciled %d/%d while it "
                            + "hung%n", TIMEOUT.toMillis(), OTHERS, (long) timeouts(registry), interruptedAt.size(),
                            timedOut, gaps, othersReconciled(), OTHERS);

                    assertThat(interruptedAt).as("every timed out attempt was interrupted").hasSize(timedOut);
                    assertThat(attempts).extracting(Call::retryCount).as("retried with a growing retry count")
                            .containsExactlyElementsOf(range(attempts.size()));
                    assertThat(timeouts(registry)).isEqualTo(timedOut);
                    assertThat(controller.count(ReconcileOutcome.TIMEOUT)).isEqualTo(timedOut);
                    assertThat(controller.count(ReconcileOutcome.SUCCESS)).isEqualTo(OTHERS + 1);
                    assertThat(controller.status().recentErrors()).first().satisfies(error -> {
                        assertThat(error.key()).isEqualTo(ObjectKey.of("ns", "hung"));
                        assertThat(error.outcome()).isEqualTo(ReconcileOutcome.TIMEOUT);
                        assertThat(error.message()).startsWith("timed out after 300 ms and was interrupted");
                    });
                });
    }

    @Test
    void withoutATimeoutAHungReconcileShowsAsLongestRunningAndInFlightWhileHealthStaysUp() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=kubeloop").run(context -> {
            assertThat(context).hasNotFailed();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Controller<?> controller = context.getBean(ControllerManager.class).controller("widget").orElseThrow();
            assertThat(controller.config().reconcileTimeout()).isZero();

            create("hung");
            assertThat(hungStarted.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
            double first = longestRunning(registry);
            eventually().until(() -> longestRunning(registry) >= first + 0.2);
            double later = longestRunning(registry);
            assertThat(registry.get(KubeloopMetrics.WORKQUEUE_UNFINISHED_WORK).tag("controller", "widget").gauge()
                    .value()).isGreaterThanOrEqualTo(later);
            // the one worker is held: another key waits in the queue
            create("waiting");
            eventually().until(() -> controller.queueStats().depth() == 1);
            assertThat(reconciler.count("ns/waiting")).isZero();

            ControllerStatus status = controller.status();
            assertThat(status.inFlight()).singleElement().satisfies(running -> {
                assertThat(running.key()).isEqualTo(ObjectKey.of("ns", "hung"));
                assertThat(running.age()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
            });
            Map<String, Object> endpoint = json(context.getBean(KubeloopEndpoint.class).controller("widget").getBody());
            List<Map<String, Object>> inFlight = list(endpoint.get("inFlight"));
            assertThat(inFlight).singleElement().satisfies(running -> {
                assertThat(running).containsEntry("key", "ns/hung");
                assertThat(((Number) running.get("ageSeconds")).doubleValue()).isGreaterThanOrEqualTo(0.2);
            });
            Health health = context.getBean(KubeloopHealthIndicator.class).health();
            assertThat(health.getStatus()).as("a hung reconcile is not a broken runtime").isEqualTo(Status.UP);
            Map<String, Object> widget = map(map(health.getDetails().get("controllers")).get("widget"));
            assertThat(map(widget.get("workers"))).containsEntry("active", 1).containsEntry("max", 1);
            assertThat(timeouts(registry)).isZero();
            assertThat(interruptedAt).isEmpty();
            System.out.printf("[reliability] hung-reconciler-no-timeout: 1 worker, no reconcile-timeout, 1 reconcile "
                    + "blocking forever: longest running processor %.2f s then %.2f s, in flight %s for %.2f s, health "
                    + "%s, keys waiting %d, timeouts 0%n", first, later, inFlight.get(0).get("key"),
                    ((Number) inFlight.get(0).get("ageSeconds")).doubleValue(), health.getStatus(),
                    controller.queueStats().depth());
            neverCountedDown.countDown();
            eventually().until(() -> reconciler.count("ns/waiting") == 1);
        });
    }

    private void create(String name) {
        cluster.client().resource(Widget.named("ns", name)).create();
    }

    private long othersReconciled() {
        return reconciler.calls().stream().filter(call -> call.key().startsWith("ns/other-")).map(Call::key)
                .distinct().count();
    }

    private static double timeouts(MeterRegistry registry) {
        return registry.get(KubeloopMetrics.RECONCILE_TIMEOUTS).tag("controller", "widget").counter().count();
    }

    private static double longestRunning(MeterRegistry registry) {
        return registry.get(KubeloopMetrics.WORKQUEUE_LONGEST_RUNNING_PROCESSOR).tag("controller", "widget").gauge()
                .value();
    }

    private static List<Integer> range(int size) {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            values.add(i);
        }
        return values;
    }

    private Map<String, Object> json(String body) {
        return map(cluster.client().getKubernetesSerialization().unmarshal(body, Map.class));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }
}
