package dev.kubeloop.autoconfigure.manifests;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.autoconfigure.controller.ControllerConfigFactory;
import dev.kubeloop.autoconfigure.controller.KubeloopProperties;
import dev.kubeloop.autoconfigure.controller.ReconcilerBean;
import dev.kubeloop.autoconfigure.leader.LeaderElectionAutoConfiguration;
import dev.kubeloop.autoconfigure.sharding.ShardingAutoConfiguration;
import dev.kubeloop.autoconfigure.webhook.WebhookBeans;
import dev.kubeloop.manifest.ApplicationAccess.Coordination;
import dev.kubeloop.manifest.ApplicationAccess;
import dev.kubeloop.manifest.ManifestFiles;
import dev.kubeloop.manifest.ReconcilerAccess;
import dev.kubeloop.webhook.WebhookDescription;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * Describes an application for its manifests at build time ({@code kubeloop:manifests}): its
 * context is prepared the way Spring Boot's {@code process-aot} prepares one (the application's
 * own {@link SpringApplication} set-up, abandoned before the refresh, then
 * {@code refreshForAotProcessing}: conditions evaluated, bean definitions final, nothing started),
 * and only the reconciler and webhook beans, with what they inject, are created. No Kubernetes
 * client is built, nothing connects, no thread starts. Each option ({@code tlsSecrets}) is the same
 * description with its properties set; {@code leaderElection} and {@code sharding} always exist.
 *
 * <p>Called by the Maven plugin through reflection, in a class loader over the project's runtime
 * class path, with JDK types only. Stateless.
 */
public final class ManifestsDescriber {

    /** The options every application has: how replicas coordinate, each with its Leases. */
    static final Map<String, Map<String, String>> COORDINATION = Map.of(
            "leaderElection", Map.of("kubeloop.leader-election.enabled", "true"),
            "sharding", Map.of("kubeloop.sharding.enabled", "true"));

    private ManifestsDescriber() {
    }

    /**
     * The manifest files of {@code applicationClass}: file name ({@value ManifestFiles#RBAC},
     * {@value ManifestFiles#WEBHOOKS}) → content.
     *
     * @param options chart option name → the application properties it sets (e.g. {@code tlsSecrets}
     *     → {@code sample.tls-secrets.watch=true})
     */
    public static Map<String, String> describe(Class<?> applicationClass, Map<String, Map<String, String>> options) {
        return describe(applicationClass, Map.of(), options);
    }

    /**
     * The same, with {@code properties} set in every description: what a build must not start (the
     * sample's {@code sample.demo=off}: its demo starts an embedded API server before the refresh).
     */
    public static Map<String, String> describe(Class<?> applicationClass, Map<String, String> properties,
            Map<String, Map<String, String>> options) {
        Map<String, String> baseProperties = new LinkedHashMap<>(properties);
        baseProperties.put("kubeloop.leader-election.enabled", "false");
        Description base = describeWith(applicationClass, baseProperties);
        Map<String, Map<String, String>> all = new LinkedHashMap<>();
        all.put("leaderElection", COORDINATION.get("leaderElection"));
        all.put("sharding", COORDINATION.get("sharding"));
        all.putAll(options);
        Map<String, ManifestFiles.Option> described = new LinkedHashMap<>();
        all.forEach((name, set) -> {
            Map<String, String> optionProperties = new LinkedHashMap<>(properties);
            optionProperties.putAll(set);
            described.put(name, new ManifestFiles.Option(set,
                    describeWith(applicationClass, optionProperties).access().beyond(base.access())));
        });
        Map<String, String> files = new LinkedHashMap<>();
        files.put(ManifestFiles.RBAC, ManifestFiles.rbac(base.access(), described));
        files.put(ManifestFiles.WEBHOOKS, ManifestFiles.webhooks(base.webhooks()));
        return files;
    }

    record Description(ApplicationAccess access, List<WebhookDescription> webhooks) {
    }

    static Description describeWith(Class<?> applicationClass, Map<String, String> properties) {
        SpringApplication application = new SpringApplication(applicationClass);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        application.setRegisterShutdownHook(false);
        List<String> args = new ArrayList<>();
        properties.forEach((key, value) -> args.add("--" + key + "=" + value)); // over application.yaml
        ConfigurableApplicationContext context = prepared(application, args.toArray(String[]::new));
        try {
            if (!(context instanceof GenericApplicationContext generic)) {
                throw new IllegalStateException("kubeloop:manifests needs a GenericApplicationContext, not "
                        + context.getClass().getName());
            }
            generic.refreshForAotProcessing(new RuntimeHints());
            ConfigurableListableBeanFactory beans = generic.getBeanFactory();
            addPostProcessors(beans); // @Autowired, @Value and @ConfigurationProperties, as a refresh would
            return describe(beans);
        } finally {
            context.close();
        }
    }

    private static ConfigurableApplicationContext prepared(SpringApplication application, String[] args) {
        try {
            SpringApplication.withHook(app -> new SpringApplicationRunListener() {
                @Override
                public void contextLoaded(ConfigurableApplicationContext context) {
                    throw new SpringApplication.AbandonedRunException(context);
                }
            }, () -> application.run(args));
        } catch (SpringApplication.AbandonedRunException e) {
            return e.getApplicationContext();
        }
        throw new IllegalStateException("the application's context was not prepared");
    }

    private static void addPostProcessors(ConfigurableListableBeanFactory beans) {
        List<BeanPostProcessor> processors = new ArrayList<>();
        for (String name : beans.getBeanNamesForType(BeanPostProcessor.class, true, false)) {
            processors.add(beans.getBean(name, BeanPostProcessor.class));
        }
        processors.sort(AnnotationAwareOrderComparator.INSTANCE);
        processors.forEach(beans::addBeanPostProcessor);
    }

    private static Description describe(ConfigurableListableBeanFactory beans) {
        KubeloopProperties properties = beans.getBean(KubeloopProperties.class);
        ControllerConfigFactory configs = new ControllerConfigFactory(properties);
        List<ReconcilerAccess> reconcilers = new ArrayList<>();
        for (ReconcilerBean bean : ReconcilerBean.findAll(beans)) {
            reconcilers.add(new ReconcilerAccess(configs.create(bean), bean.reconciler() instanceof Cleaner<?>));
        }
        Coordination coordination = beans.containsBeanDefinition(ShardingAutoConfiguration.class.getName())
                ? Coordination.SHARDING
                : beans.containsBeanDefinition(LeaderElectionAutoConfiguration.class.getName())
                        ? Coordination.LEADER_ELECTION : Coordination.NONE;
        List<WebhookDescription> webhooks = WebhookBeans.present(beans)
                ? WebhookDescription.of(WebhookBeans.collect(beans, new KubernetesSerialization())) : List.of();
        return new Description(ApplicationAccess.derive(reconcilers, coordination), webhooks);
    }
}
