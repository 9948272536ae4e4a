package dev.kubeloop.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.controller.KubeloopProperties;
import dev.kubeloop.autoconfigure.leader.LeaderElectionAutoConfiguration;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.autoconfigure.sharding.ShardingAutoConfiguration;
import dev.kubeloop.autoconfigure.tracing.KubeloopTracingAutoConfiguration;
import dev.kubeloop.autoconfigure.webhook.KubeloopWebhookAutoConfiguration;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.WidgetValidator;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Every {@code kubeloop.*} property, given a value it does not accept, fails startup with the
 * report Spring Boot would print naming the property and what it accepts: values that do not
 * convert (a word for a number, an unknown enum constant), values out of range, a bad label
 * selector, a reconciler that does not exist. The list of properties comes from the configuration
 * metadata the build generates (plus the per-reconciler settings, which the metadata only knows
 * as a map), so a new property without a case here fails {@link #everyPropertyHasACase()}.
 */
class InvalidPropertyValuesTest {

    private static final String RECONCILER = "kubeloop.reconcilers.*.";

    /** Properties that accept any value, with the reason; they need no case. */
    private static final Map<String, String> ANY_VALUE = Map.of("kubeloop.leader-election.identity",
            "any string is a valid Lease holder identity; blank means the default (pod name plus a suffix)");
    /** The prefix of the sharding cases, which run with sharding on instead of leader election. */
    private static final String SHARDING = "kubeloop.sharding.";

    private static final List<Case> CASES = List.of(
            new Case("kubeloop.enabled", "maybe", "Property kubeloop.enabled has an invalid value 'maybe'",
                    "true or false"),
            new Case("kubeloop.cache-sync-timeout", "soon", "invalid value 'soon'", "a positive duration such as 500ms"),
            new Case("kubeloop.cache-sync-timeout", "0s", "Property kubeloop.cache-sync-timeout has an invalid value "
                    + "'0s': it must be a positive duration", "or remove it to use the default (2m)"),
            new Case("kubeloop.shutdown-timeout", "later", "invalid value 'later'", "a duration of 0 or more"),
            new Case("kubeloop.shutdown-timeout", "-5s", "Property kubeloop.shutdown-timeout has an invalid value "
                    + "'-5s': it must be a duration of 0 or more"),
            new Case("kubeloop.exit-zero-on-sigterm", "sometimes", "invalid value 'sometimes'", "true or false"),
            new Case("kubeloop.strip-managed-fields", "perhaps", "invalid value 'perhaps'", "true or false"),
            new Case("kubeloop.exit-when-ready", "soon", "invalid value 'soon'", "true or false"),
            new Case("kubeloop.read-your-writes", "mostly", "invalid value 'mostly'", "true or false"),
            new Case("kubeloop.tracing.enabled", "sampled", "Property kubeloop.tracing.enabled has an invalid value "
                    + "'sampled'", "true or false"),
            new Case("kubeloop.tracing.annotation", "trace parent", "Property kubeloop.tracing.annotation has an "
                    + "invalid value 'trace parent'", "an annotation key such as example.com/traceparent"),
            new Case("kubeloop.tracing.propagate", "onward", "Property kubeloop.tracing.propagate has an invalid value "
                    + "'onward'", "true or false"),
            new Case("kubeloop.informer-list-page-size", "many", "invalid value 'many'", "a whole number"),
            new Case("kubeloop.optional-type-poll-interval", "often", "invalid value 'often'", "a positive duration"),
            new Case("kubeloop.optional-type-poll-interval", "0s", "Property kubeloop.optional-type-poll-interval "
                    + "has an invalid value '0s': it must be a positive duration", "default (10s)"),
            new Case("kubeloop.informer-list-page-size", "-1", "Property kubeloop.informer-list-page-size has an "
                    + "invalid value '-1': it must be a whole number of 0 or more (0 lists in one response; client-go "
                    + "pages by 500)"),
            new Case("kubeloop.namespaces", "Not_A_Namespace", "'Not_A_Namespace' is not a valid namespace name",
                    "property kubeloop.namespaces"),
            new Case("kubeloop.rate-limiter.base-delay", "quick", "invalid value 'quick'",
                    "a positive duration, at most max-delay"),
            new Case("kubeloop.rate-limiter.base-delay", "0", "Property kubeloop.rate-limiter.base-delay has an "
                    + "invalid value '0s': it must be a positive duration, at most max-delay", "default (5ms)"),
            new Case("kubeloop.rate-limiter.max-delay", "1ms", "Property kubeloop.rate-limiter.max-delay (1ms) "
                    + "must be at least kubeloop.rate-limiter.base-delay (5ms)", "Raise kubeloop.rate-limiter.max-delay"),
            new Case("kubeloop.rate-limiter.qps", "fast", "invalid value 'fast'", "a positive number"),
            new Case("kubeloop.rate-limiter.qps", "0", "Property kubeloop.rate-limiter.qps has an invalid value '0': "
                    + "it must be a positive number", "default (10)"),
            new Case("kubeloop.rate-limiter.burst", "lots", "invalid value 'lots'", "a whole number of 1 or more"),
            new Case("kubeloop.rate-limiter.burst", "0", "Property kubeloop.rate-limiter.burst has an invalid value "
                    + "'0': it must be a whole number of 1 or more", "default (100)"),
            new Case("kubeloop.introspection.last-errors", "many", "invalid value 'many'",
                    "a whole number of 0 or more"),
            new Case("kubeloop.introspection.last-errors", "-1", "has an invalid value '-1': it must be a whole "
                    + "number of 0 or more", "default (20)"),
            new Case("kubeloop.leader-election.enabled", "sometimes", "Property kubeloop.leader-election.enabled "
                    + "has an invalid value 'sometimes': it must be true or false", "true or false"),
            new Case("kubeloop.leader-election.lease-name", "Op_1", "'Op_1' is not a valid Lease name",
                    "my-operator-leader"),
            new Case("kubeloop.leader-election.lease-namespace", "Bad_NS", "kubeloop.leader-election.lease-namespace "
                    + "'Bad_NS' is not a valid namespace name", "the namespace the operator runs in"),
            new Case("kubeloop.leader-election.lease-duration", "long", "invalid value 'long'",
                    "a whole number of seconds, longer than renew-deadline"),
            new Case("kubeloop.leader-election.lease-duration", "15500ms", "lease-duration must be a whole number "
                    + "of seconds", "lease-duration > renew-deadline >= 2 × retry-period"),
            new Case("kubeloop.leader-election.renew-deadline", "-1s", "kubeloop.leader-election.renew-deadline must "
                    + "be a positive duration, was -1s", "lease-duration > renew-deadline"),
            new Case("kubeloop.leader-election.retry-period", "never", "invalid value 'never'",
                    "a positive duration such as"),
            new Case("kubeloop.leader-election.retry-period", "0", "retry-period must be a positive duration, was 0s",
                    "2 × retry-period"),
            new Case("kubeloop.leader-election.release-on-shutdown", "sure", "invalid value 'sure'", "true or false"),
            new Case("kubeloop.leader-election.on-lost", "sometimes", "invalid value 'sometimes'",
                    "one of exit, standby"),
            new Case("kubeloop.sharding.enabled", "sometimes", "Property kubeloop.sharding.enabled has an invalid "
                    + "value 'sometimes': it must be true or false", "true or false"),
            new Case("kubeloop.sharding.ring-name", "My_Ring", "kubeloop.sharding.ring-name 'My_Ring' is invalid: "
                    + "it must be a DNS label such as my-operator", "Fix the property named above"),
            new Case("kubeloop.sharding.namespace", "Bad_NS", "kubeloop.sharding.namespace 'Bad_NS' is invalid",
                    "a namespace name"),
            new Case("kubeloop.sharding.identity", "Replica_1", "kubeloop.sharding.identity 'Replica_1' is invalid",
                    "unique per process"),
            new Case("kubeloop.sharding.buckets", "many", "invalid value 'many'", "a power of two from 1 to 1024"),
            new Case("kubeloop.sharding.buckets", "48", "kubeloop.sharding.buckets '48' is invalid: it must be a "
                    + "power of two from 1 to 1024", "the same on every replica"),
            new Case("kubeloop.sharding.lease-duration", "long", "invalid value 'long'",
                    "a whole number of seconds, longer than renew-deadline"),
            new Case("kubeloop.sharding.lease-duration", "10s", "kubeloop.sharding.lease-duration (10s) must be "
                    + "longer than kubeloop.sharding.renew-deadline (10s)", "lease-duration > renew-deadline"),
            new Case("kubeloop.sharding.renew-deadline", "-1s", "kubeloop.sharding.renew-deadline '-1s' is invalid",
                    "a positive duration"),
            new Case("kubeloop.sharding.retry-period", "6s", "kubeloop.sharding.renew-deadline (10s) must be at "
                    + "least 2 × kubeloop.sharding.retry-period (6s)", "renew-deadline >= 2 × retry-period"),
            new Case("kubeloop.sharding.drain-timeout", "-1s", "kubeloop.sharding.drain-timeout '-1s' is invalid",
                    "a duration of 0 or more"),
            new Case("kubeloop.reconcilers", "kubeloop.reconcilers.wigdet.workers", "2",
                    List.of("Property kubeloop.reconcilers.wigdet does not match any reconciler (reconcilers: [widget])",
                            "Use the name of a reconciler")),
            new Case("kubeloop.webhook.enabled", "maybe", "Property kubeloop.webhook.enabled has an invalid value "
                    + "'maybe'", "true or false"),
            new Case("kubeloop.webhook.port", "web", "invalid value 'web'", "a port number from 0 to 65535"),
            new Case("kubeloop.webhook.port", "70000", "Property kubeloop.webhook.port has an invalid value '70000': "
                    + "it must be a port number from 0 to 65535 (0: any free port)", "default (9443)"),
            new Case("kubeloop.webhook.address", "not an address!", "Property kubeloop.webhook.address has an invalid "
                    + "value 'not an address!': it must be an IP address or host name", "default (0.0.0.0)"),
            new Case("kubeloop.webhook.ssl-bundle", "missing", "kubeloop.webhook.ssl-bundle names the SSL bundle "
                    + "'missing', which is not defined", "spring.ssl.bundle.pem.missing.keystore.certificate",
                    "kubeloop.webhook.enabled=false"),
            new Case("kubeloop.webhook.threads", "many", "invalid value 'many'", "a whole number of 1 or more"),
            new Case("kubeloop.webhook.threads", "0", "Property kubeloop.webhook.threads has an invalid value '0': "
                    + "it must be a whole number of 1 or more", "default (8)"),
            new Case("kubeloop.webhook.max-connections", "0", "Property kubeloop.webhook.max-connections has an "
                    + "invalid value '0': it must be a whole number of 1 or more", "default (512)"),
            new Case("kubeloop.webhook.handshake-timeout", "0s", "Property kubeloop.webhook.handshake-timeout has an "
                    + "invalid value", "a positive duration such as 10s"),
            new Case("kubeloop.webhook.idle-timeout", "-5s", "Property kubeloop.webhook.idle-timeout has an "
                    + "invalid value", "a positive duration such as 30s"),
            new Case("kubeloop.webhook.request-timeout", "soon", "invalid value 'soon'"),
            new Case("kubeloop.webhook.body-budget", "1024", "Property kubeloop.webhook.body-budget has an invalid "
                    + "value '1024': it must be a number of bytes of 65536 or more"),
            new Case("kubeloop.webhook.dev-registration.enabled", "maybe", "Property "
                    + "kubeloop.webhook.dev-registration.enabled has an invalid value 'maybe'", "true or false"),
            new Case("kubeloop.webhook.dev-registration.host", "not a host!", "Property "
                    + "kubeloop.webhook.dev-registration.host has an invalid value 'not a host!': it must be an IP "
                    + "address or DNS name", "default (127.0.0.1)"),
            new Case(RECONCILER + "workers", "many", "invalid value 'many'", "a whole number of 1 or more"),
            new Case(RECONCILER + "workers", "0", "workers must be a whole number of 1 or more, was 0",
                    "property kubeloop.reconcilers.widget.workers"),
            new Case(RECONCILER + "namespaces", "Bad_NS", "'Bad_NS' is not a valid namespace name",
                    "property kubeloop.reconcilers.widget.namespaces"),
            new Case(RECONCILER + "label-selector", "tier in (web", "invalid label selector 'tier in (web'",
                    "key in (a,b)"),
            new Case(RECONCILER + "generation-aware", "often", "invalid value 'often'", "true or false"),
            new Case(RECONCILER + "resync-period", "hourly", "invalid value 'hourly'", "a duration of 0 or more"),
            new Case(RECONCILER + "resync-period", "-1s", "resync period must be a duration of 0 or more",
                    "property kubeloop.reconcilers.widget.resync-period"),
            new Case(RECONCILER + "reconcile-timeout", "forever", "invalid value 'forever'",
                    "a duration of 0 or more (0 means no limit)"),
            new Case(RECONCILER + "reconcile-timeout", "-1s", "reconcile timeout must be a duration of 0 or more",
                    "property kubeloop.reconcilers.widget.reconcile-timeout"),
            new Case(RECONCILER + "max-attempts", "many", "invalid value 'many'",
                    "a whole number of 0 or more (0 means no limit)"),
            new Case(RECONCILER + "max-attempts", "-1", "max attempts must be a whole number of 0 or more (0 means no "
                    + "limit), was -1", "property kubeloop.reconcilers.widget.max-attempts"),
            new Case(RECONCILER + "finalizer", "not a finalizer", "'not a finalizer' is not a valid finalizer name",
                    "example.com/cleanup"),
            new Case(RECONCILER + "field-manager", "x".repeat(129), "is not a valid field manager",
                    "at most 128 bytes", "property kubeloop.reconcilers.widget.field-manager"));

    private static MockCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void everyPropertyHasACase() throws IOException {
        Set<String> covered = CASES.stream().map(Case::property).collect(Collectors.toCollection(TreeSet::new));
        covered.addAll(ANY_VALUE.keySet());
        assertThat(covered).as("kubeloop properties with a case (or listed as accepting any value)")
                .containsExactlyInAnyOrderElementsOf(declaredProperties());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aValueThePropertyDoesNotAcceptFailsStartupNamingThePropertyAndWhatItAccepts(Case invalid) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                        ShardingAutoConfiguration.class, LeaderElectionAutoConfiguration.class,
                        SslAutoConfiguration.class,
                        KubeloopWebhookAutoConfiguration.class, KubeloopTracingAutoConfiguration.class))
                .withUserConfiguration(ScanningApplication.class)
                .withBean(KubernetesClient.class, cluster::client)
                .withBean(WidgetValidator.class)
                .withPropertyValues(invalid.key().startsWith(SHARDING) ? SHARDING + "enabled=true"
                        : "kubeloop.leader-election.enabled=true", "spring.application.name=op",
                        // the webhook server (which would need a certificate) only for the webhook's cases
                        "kubeloop.webhook.enabled=" + invalid.key().startsWith("kubeloop.webhook."),
                        invalid.key() + "=" + invalid.value())
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure(), invalid);
                    assertThat(analysis).as("a failure analysis of %s", context.getStartupFailure()).isNotNull();
                    String report = analysis.getDescription() + "\n" + analysis.getAction();
                    assertThat(analysis.getDescription()).contains(invalid.propertyAsConfigured());
                    assertThat(report).contains(invalid.expected());
                });
    }

    static Stream<Case> cases() {
        return CASES.stream();
    }

    /** What Spring Boot prints: the first analysis of its analyzers, in their order. */
    private static FailureAnalysis analyze(Throwable failure, Case invalid) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("case",
                Map.of(invalid.key(), invalid.value())));
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation().load(
                FailureAnalyzer.class, ArgumentResolver.of(Environment.class, environment),
                (type, name, error) -> { }); // analyzers needing more than the environment are not ours
        return analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElse(null);
    }

    /** kubeloop.* properties from the generated metadata; a map of reconcilers as its value's settings. */
    private static Set<String> declaredProperties() throws IOException {
        Set<String> properties = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        List<URL> files = Collections.list(InvalidPropertyValuesTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        for (URL file : files) {
            try (InputStream in = file.openStream()) {
                for (JsonNode property : json.readTree(in).path("properties")) {
                    String name = property.path("name").asText();
                    if (name.startsWith("kubeloop.")) {
                        properties.add(name);
                    }
                }
            }
        }
        assertThat(properties).as("generated metadata (spring-boot-configuration-processor)")
                .contains("kubeloop.enabled", "kubeloop.reconcilers");
        properties.addAll(reconcilerSettings());
        return properties;
    }

    private static List<String> reconcilerSettings() {
        try {
            List<String> settings = new ArrayList<>();
            for (PropertyDescriptor descriptor : Introspector.getBeanInfo(KubeloopProperties.Reconciler.class,
                    Object.class).getPropertyDescriptors()) {
                if (descriptor.getWriteMethod() != null) {
                    settings.add(RECONCILER + descriptor.getName().replaceAll("([A-Z])", "-$1").toLowerCase());
                }
            }
            return settings;
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * One invalid value of one property.
     *
     * @param property the property as documented ({@code kubeloop.reconcilers.*.workers})
     * @param key the property as set ({@code kubeloop.reconcilers.widget.workers})
     * @param expected what the printed description and action must contain
     */
    record Case(String property, String key, String value, List<String> expected) {

        Case(String property, String value, String... expected) {
            this(property, property.replace("*", "widget"), value, Arrays.asList(expected));
        }

        /** The property's name as the report must give it: the key, or its reconciler prefix for an unknown reconciler. */
        String propertyAsConfigured() {
            return property.equals("kubeloop.reconcilers") ? "kubeloop.reconcilers.wigdet" : key;
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }
}
