package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.autoconfigure.controller.KubeloopProperties;
import dev.kubeloop.autoconfigure.leader.LeaderElectionProperties;
import dev.kubeloop.autoconfigure.sharding.ShardingProperties;
import dev.kubeloop.autoconfigure.webhook.WebhookProperties;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.runtime.LeaseTimings;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.sharding.ShardingSettings;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.webhook.WebhookSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each setting has one definition, in its package's catalog ({@link SettingsCatalog} lists them:
 * {@link Settings}, {@link LeaderElectionSettings}, {@code ShardingSettings}, {@link WebhookSettings});
 * this test ties everything else to it: the properties class's
 * defaults, the IDE metadata the build generates, the tables of {@code docs/configuration.md},
 * and the defaults the runtime falls back on when a setting is not given.
 */
class SettingsDocumentationTest {

    private static final Path CONFIGURATION_DOC = Path.of("../docs/configuration.md");

    private static List<Setting<?>> catalog() {
        return SettingsCatalog.all();
    }

    private static boolean perReconciler(Setting<?> setting) {
        return setting.property().startsWith("kubeloop.reconcilers.*.");
    }

    @Test
    void theIdeMetadataListsEveryGlobalSettingWithTheCatalogsDefault() throws IOException {
        Map<String, JsonNode> metadata = new LinkedHashMap<>();
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the metadata the configuration processor generates").isNotNull();
            for (JsonNode property : new ObjectMapper().readTree(in).get("properties")) {
                String name = property.get("name").asText();
                if (name.startsWith("kubeloop.") && !name.equals("kubeloop.reconcilers")) {
                    metadata.put(name, property);
                }
            }
        }
        List<Setting<?>> global = catalog().stream().filter(setting -> !perReconciler(setting)).toList();

        assertThat(metadata.keySet()).containsExactlyInAnyOrderElementsOf(
                global.stream().map(Setting::property).toList());
        for (Setting<?> setting : global) {
            JsonNode property = metadata.get(setting.property());
            assertThat(property.hasNonNull("description")).as(setting.property() + " has a description").isTrue();
            if (setting.defaultValue() == null || setting.defaultValue() instanceof List<?>) {
                assertThat(property.hasNonNull("defaultValue")).as(setting.property() + " has no fixed default")
                        .isFalse();
            } else {
                assertThat(property.get("defaultValue").asText()).as(setting.property())
                        .isEqualTo(Setting.format(setting.defaultValue()));
            }
        }
    }

    @Test
    void theConfigurationPageDocumentsTheCatalogsDefaults() throws IOException {
        Map<String, String> documented = documentedDefaults(Files.readAllLines(CONFIGURATION_DOC));

        for (Setting<?> setting : catalog()) {
            assertThat(documented).as("docs/configuration.md documents " + setting.property())
                    .containsKey(setting.property());
            assertThat(documented.get(setting.property())).as("documented default of " + setting.property())
                    .isEqualTo(setting.defaultText());
        }
        assertThat(documented.keySet()).as("documented settings the catalog does not know")
                .containsExactlyInAnyOrderElementsOf(catalog().stream().map(Setting::property).toList());
    }

    /** Leader election and sharding state the one timing rule, as the code checks it. */
    @Test
    void theConfigurationPageStatesTheLeaseTimingRuleForBoth() throws IOException {
        String page = Files.readString(CONFIGURATION_DOC);

        assertThat(page.split(java.util.regex.Pattern.quote("`" + LeaseTimings.rule() + "`"), -1))
                .as("`" + LeaseTimings.rule() + "` under leader election and under sharding").hasSize(3);
        assertThat(page).doesNotContain("2.2 ×");
    }

    @Test
    void thePropertiesClassStartsFromTheCatalogsDefaults() {
        KubeloopProperties properties = new KubeloopProperties();

        assertThat(properties.isEnabled()).isEqualTo(Settings.ENABLED.defaultValue());
        assertThat(properties.getNamespaces()).isEqualTo(Settings.NAMESPACES.defaultValue());
        assertThat(properties.getCacheSyncTimeout()).isEqualTo(Settings.CACHE_SYNC_TIMEOUT.defaultValue());
        assertThat(properties.getShutdownTimeout()).isEqualTo(Settings.SHUTDOWN_TIMEOUT.defaultValue());
        assertThat(properties.isStripManagedFields()).isEqualTo(Settings.STRIP_MANAGED_FIELDS.defaultValue());
        assertThat(properties.getInformerListPageSize()).isEqualTo(Settings.INFORMER_LIST_PAGE_SIZE.defaultValue());
        assertThat(properties.isExitWhenReady()).isEqualTo(Settings.EXIT_WHEN_READY.defaultValue());
        assertThat(properties.getRateLimiter().getBaseDelay()).isEqualTo(Settings.RATE_LIMITER_BASE_DELAY.defaultValue());
        assertThat(properties.getRateLimiter().getMaxDelay()).isEqualTo(Settings.RATE_LIMITER_MAX_DELAY.defaultValue());
        assertThat(properties.getRateLimiter().getQps()).isEqualTo(Settings.RATE_LIMITER_QPS.defaultValue());
        assertThat(properties.getRateLimiter().getBurst()).isEqualTo(Settings.RATE_LIMITER_BURST.defaultValue());
        assertThat(properties.getIntrospection().getLastErrors())
                .isEqualTo(Settings.INTROSPECTION_LAST_ERRORS.defaultValue());
    }

    @Test
    void eachConcernsPropertiesStartFromItsCatalogsDefaults() {
        LeaderElectionProperties election = new LeaderElectionProperties();
        assertThat(election.getLeaseDuration()).isEqualTo(LeaderElectionSettings.LEASE_DURATION.defaultValue());
        assertThat(election.getRenewDeadline()).isEqualTo(LeaderElectionSettings.RENEW_DEADLINE.defaultValue());
        assertThat(election.getRetryPeriod()).isEqualTo(LeaderElectionSettings.RETRY_PERIOD.defaultValue());
        assertThat(election.isReleaseOnShutdown()).isEqualTo(LeaderElectionSettings.RELEASE_ON_SHUTDOWN.defaultValue());
        assertThat(election.getOnLost()).isEqualTo(LeaderElectionSettings.ON_LOST.defaultValue());
        ShardingProperties sharding = new ShardingProperties();
        assertThat(sharding.isEnabled()).isEqualTo(ShardingSettings.ENABLED.defaultValue());
        assertThat(sharding.getBuckets()).isEqualTo(ShardingSettings.BUCKETS.defaultValue());
        assertThat(sharding.getLeaseDuration()).isEqualTo(ShardingSettings.LEASE_DURATION.defaultValue());
        assertThat(sharding.getRenewDeadline()).isEqualTo(ShardingSettings.RENEW_DEADLINE.defaultValue());
        assertThat(sharding.getRetryPeriod()).isEqualTo(ShardingSettings.RETRY_PERIOD.defaultValue());
        assertThat(sharding.getDrainTimeout()).isEqualTo(ShardingSettings.DRAIN_TIMEOUT.defaultValue());
        WebhookProperties webhook = new WebhookProperties();
        assertThat(webhook.isEnabled()).isEqualTo(WebhookSettings.ENABLED.defaultValue());
        assertThat(webhook.getPort()).isEqualTo(WebhookSettings.PORT.defaultValue());
        assertThat(webhook.getAddress()).isEqualTo(WebhookSettings.ADDRESS.defaultValue());
        assertThat(webhook.getSslBundle()).isEqualTo(WebhookSettings.SSL_BUNDLE.defaultValue());
        assertThat(webhook.getThreads()).isEqualTo(WebhookSettings.THREADS.defaultValue());
        assertThat(webhook.getMaxConnections()).isEqualTo(WebhookSettings.MAX_CONNECTIONS.defaultValue());
        assertThat(webhook.getHandshakeTimeout()).isEqualTo(WebhookSettings.HANDSHAKE_TIMEOUT.defaultValue());
        assertThat(webhook.getIdleTimeout()).isEqualTo(WebhookSettings.IDLE_TIMEOUT.defaultValue());
        assertThat(webhook.getRequestTimeout()).isEqualTo(WebhookSettings.REQUEST_TIMEOUT.defaultValue());
        assertThat(webhook.getBodyBudget()).isEqualTo(WebhookSettings.BODY_BUDGET.defaultValue());
        assertThat(webhook.getDevRegistration().isEnabled()).isEqualTo(WebhookSettings.DEV_REGISTRATION.defaultValue());
        assertThat(webhook.getDevRegistration().getHost()).isEqualTo(WebhookSettings.DEV_REGISTRATION_HOST.defaultValue());
    }

    /** The documented values themselves, as client-go and controller-runtime have them. */
    @Test
    void theRuntimesDefaultsAreClientGosAndControllerRuntimes() {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class).build();
        assertThat(config.workers()).isEqualTo(Settings.WORKERS.defaultValue()).isEqualTo(1);
        assertThat(config.resyncPeriod()).isEqualTo(Settings.RESYNC_PERIOD.defaultValue())
                .isEqualTo(Duration.ofHours(10));
        assertThat(config.reconcileTimeout()).isEqualTo(Settings.RECONCILE_TIMEOUT.defaultValue()).isZero();
        assertThat(config.maxAttempts()).as("client-go's unlimited backoff").isEqualTo(Settings.MAX_ATTEMPTS
                .defaultValue()).isZero();
        assertThat(config.generationAware()).isEqualTo(Settings.GENERATION_AWARE.defaultValue()).isTrue();
        assertThat(config.namespaces()).containsExactlyElementsOf(Settings.RECONCILER_NAMESPACES.defaultValue())
                .isEmpty();
        assertThat(config.labelSelector()).isEqualTo(Settings.LABEL_SELECTOR.defaultValue()).isEmpty();
        assertThat(config.finalizer()).isEmpty();

        RateLimiter<String> limiter = RateLimiter.defaultControllerRateLimiter();
        assertThat(limiter.when("a")).isEqualTo(Settings.RATE_LIMITER_BASE_DELAY.defaultValue())
                .isEqualTo(Duration.ofMillis(5));
        assertThat(Settings.RATE_LIMITER_MAX_DELAY.defaultValue()).isEqualTo(Duration.ofSeconds(1000));
        assertThat(Settings.RATE_LIMITER_QPS.defaultValue()).isEqualTo(10.0);
        assertThat(Settings.RATE_LIMITER_BURST.defaultValue()).isEqualTo(100);
        assertThat(Settings.CACHE_SYNC_TIMEOUT.defaultValue()).isEqualTo(Duration.ofMinutes(2));
        assertThat(Settings.SHUTDOWN_TIMEOUT.defaultValue()).isEqualTo(Duration.ofSeconds(30));
        assertThat(LeaderElectionSettings.LEASE_DURATION.defaultValue()).isEqualTo(Duration.ofSeconds(15));
        assertThat(LeaderElectionSettings.RENEW_DEADLINE.defaultValue()).isEqualTo(Duration.ofSeconds(10));
        assertThat(LeaderElectionSettings.RETRY_PERIOD.defaultValue()).isEqualTo(Duration.ofSeconds(2));
        assertThat(WebhookSettings.PORT.defaultValue()).as("controller-runtime's webhook port").isEqualTo(9443);
    }

    /**
     * The default column of every table of the page that names properties: global tables have the
     * full property in the first column, the per-reconciler table the part after
     * {@code kubeloop.reconcilers.<name>.} in the second. Backticks are dropped.
     */
    private static Map<String, String> documentedDefaults(List<String> lines) {
        Map<String, String> defaults = new LinkedHashMap<>();
        boolean reconcilerTable = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                reconcilerTable = false;
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (line.startsWith("|---")) {
                continue;
            }
            if (cells[1].contains("annotation attribute")) {
                reconcilerTable = true;
                continue;
            }
            String first = cells[1].trim().replace("`", "");
            if (!reconcilerTable && first.startsWith("kubeloop.")) {
                defaults.put(first, cells[2].trim().replace("`", ""));
            } else if (reconcilerTable && !cells[2].contains("not a property")) {
                defaults.put("kubeloop.reconcilers.*." + cells[2].trim().replace("`", ""),
                        cells[3].trim().replace("`", ""));
            }
        }
        return defaults;
    }
}
