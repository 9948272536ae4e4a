package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.runtime.LeaseTimings;
import dev.kubeloop.runtime.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ranges a chart accepts for the values that become Kubeloop settings are the settings' own:
 * each {@code values.schema.json} bound is checked against the catalog's {@link Setting#accepts}
 * (the bound accepted, the next value past it refused; no upper bound where the setting has none),
 * and each chart's {@code validate.yaml} refuses the timings {@link LeaseTimings} refuses. Where a
 * chart is deliberately narrower, the row says why.
 */
class ChartRangesTest {

    /** A chart value that becomes {@code setting}; {@code narrowerBelow}: why the chart's minimum is higher. */
    private record Row(String path, String property, LongFunction<Object> value, String narrowerBelow) {
    }

    private static final LongFunction<Object> INT = n -> (int) n;
    private static final LongFunction<Object> LONG = n -> n;
    private static final LongFunction<Object> SECONDS = Duration::ofSeconds;

    private static final List<Row> ROWS = List.of(
            new Row("operator.workers", "kubeloop.reconcilers.*.workers", INT, null),
            new Row("operator.shutdownTimeoutSeconds", "kubeloop.shutdown-timeout", SECONDS, null),
            new Row("operator.listPageSize", "kubeloop.informer-list-page-size", LONG, null),
            new Row("leaderElection.leaseDurationSeconds", "kubeloop.leader-election.lease-duration", SECONDS, null),
            new Row("leaderElection.renewDeadlineSeconds", "kubeloop.leader-election.renew-deadline", SECONDS,
                    "the chart writes whole seconds"),
            new Row("leaderElection.retryPeriodSeconds", "kubeloop.leader-election.retry-period", SECONDS,
                    "the chart writes whole seconds"),
            new Row("sharding.buckets", "kubeloop.sharding.buckets", INT, null),
            new Row("sharding.leaseDurationSeconds", "kubeloop.sharding.lease-duration", SECONDS, null),
            new Row("sharding.renewDeadlineSeconds", "kubeloop.sharding.renew-deadline", SECONDS,
                    "the chart writes whole seconds"),
            new Row("sharding.retryPeriodSeconds", "kubeloop.sharding.retry-period", SECONDS,
                    "the chart writes whole seconds"),
            new Row("webhooks.port", "kubeloop.webhook.port", INT,
                    "the container runs as non-root (runAsUser 65532): no port below 1024; 0 (any free port) "
                            + "cannot be put in a Service"));

    @ParameterizedTest
    @ValueSource(strings = {"../helm/sample-operator", "../archetype/src/main/resources/archetype-resources/chart"})
    void everyBoundOfTheChartsSchemaIsTheSettingsOwn(String chart) throws IOException {
        JsonNode schema = new ObjectMapper().readTree(Files.readString(Path.of(chart, "values.schema.json")));
        List<String> checked = new ArrayList<>();
        for (Row row : ROWS) {
            JsonNode node = node(schema, row.path());
            if (node == null) {
                continue; // this chart does not have the value
            }
            checked.add(row.path());
            @SuppressWarnings("unchecked")
            Setting<Object> setting = (Setting<Object>) SettingsCatalog.all().stream()
                    .filter(candidate -> candidate.property().equals(row.property())).findFirst().orElseThrow();
            String what = chart + " " + row.path() + " vs " + row.property() + " (" + setting.allowed() + ")";
            if (node.has("enum")) {
                List<Long> listed = new ArrayList<>();
                node.get("enum").forEach(value -> listed.add(value.asLong()));
                for (long n = -1; n <= 4096; n++) {
                    assertThat(setting.accepts(row.value().apply(n))).as(what + ": " + n).isEqualTo(listed.contains(n));
                }
                continue;
            }
            assertThat(node.has("minimum")).as(what + " has a minimum").isTrue();
            long minimum = node.get("minimum").asLong();
            assertThat(setting.accepts(row.value().apply(minimum))).as(what + ": the minimum").isTrue();
            if (row.narrowerBelow() == null) {
                assertThat(setting.accepts(row.value().apply(minimum - 1))).as(what + ": below the minimum").isFalse();
            }
            if (node.has("maximum")) {
                long maximum = node.get("maximum").asLong();
                assertThat(setting.accepts(row.value().apply(maximum))).as(what + ": the maximum").isTrue();
                assertThat(setting.accepts(row.value().apply(maximum + 1))).as(what + ": above the maximum")
                        .isFalse();
            } else {
                assertThat(setting.accepts(row.value().apply(100_000))).as(what + ": the chart has no maximum, "
                        + "so the setting must not have one either").isTrue();
            }
        }
        assertThat(checked).as(chart + " maps values onto these settings").contains("operator.workers",
                "leaderElection.renewDeadlineSeconds", "sharding.buckets", "webhooks.port");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../helm/sample-operator", "../archetype/src/main/resources/archetype-resources/chart"})
    void theChartRefusesTheLeaseTimingsTheOperatorRefuses(String chart) throws IOException {
        String validate = Files.readString(Path.of(chart, "templates", "validate.yaml"));
        int times = LeaseTimings.RETRY_PERIODS_PER_RENEW_DEADLINE;
        for (String values : List.of("$le", "$sh")) {
            assertThat(validate).as(chart + " checks " + values + " with " + LeaseTimings.rule())
                    .contains("if not (gt (int " + values + ".leaseDurationSeconds) (int " + values
                            + ".renewDeadlineSeconds))")
                    .contains("if lt (int " + values + ".renewDeadlineSeconds) (mul " + times + " (int " + values
                            + ".retryPeriodSeconds))");
        }
    }

    private static JsonNode node(JsonNode schema, String path) {
        JsonNode node = schema;
        for (String part : path.split("\\.")) {
            node = node.path("properties").get(part);
            if (node == null) {
                return null;
            }
        }
        return node;
    }
}
