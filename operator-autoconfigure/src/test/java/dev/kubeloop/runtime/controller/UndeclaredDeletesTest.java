package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile deleting a kind its {@code @Reconciler(deletes)} does not list (issue 28's follow-up):
 * the generated RBAC would refuse it in a cluster, so the runtime says so in one WARN line per
 * (controller, kind), naming the fix, and tells its listeners about every such delete.
 */
class UndeclaredDeletesTest extends MockClusterTestSupport {

    private CapturedLogs logs;
    private final List<String> reported = new CopyOnWriteArrayList<>();

    @BeforeEach
    void observe() {
        logs = CapturedLogs.of(Controller.class, Level.WARN);
        manager.stop();
        ControllerObserver observer = new ControllerObserver() {
            @Override
            public ControllerListener controllerRegistered(ControllerConfig<?> config) {
                return new ControllerListener() {
                    @Override
                    public void undeclaredDelete(HasMetadata object, String advice) {
                        reported.add(config.name() + " " + object.getKind() + " " + object.getMetadata().getName());
                    }
                };
            }
        };
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).observer(observer).build();
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    @Test
    void pruningAndDeletingAKindNotDeclaredWarnsOncePerKindNamingTheFixAndReportsEveryDelete() {
        Controller<Widget> controller = start(List.of(), (widget, context) -> {
            int size = widget.getSpec().getSize();
            context.apply(desiredConfigMap("settings-" + size)); // the previous size's ConfigMap is pruned
            context.apply(desiredSecret("keep"));
            context.delete(desiredSecret("old-" + size)); // gone already or not: the Role would refuse it either way
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap("settings-0") != null && controller.queueStats().idle());

        for (int size = 1; size <= 3; size++) {
            resize(size);
            int expected = size;
            eventually().until(() -> configMap("settings-" + expected) != null
                    && configMap("settings-" + (expected - 1)) == null && controller.queueStats().idle());
        }

        List<ILoggingEvent> warnings = logs.events(Level.WARN, "does not declare");
        assertThat(warnings).extracting(ILoggingEvent::getFormattedMessage).hasSize(2)
                .anySatisfy(line -> assertThat(line).contains("controller=widget", "key=ns/a", "kind=ConfigMap",
                        "@Reconciler does not declare deletes = ConfigMap.class",
                        "grants no delete without it", "(403)"))
                .anySatisfy(line -> assertThat(line).contains("controller=widget", "kind=Secret",
                        "deletes = Secret.class"));
        assertThat(reported).as("every undeclared delete, pruned or through the context")
                .contains("widget ConfigMap settings-0", "widget ConfigMap settings-2", "widget Secret old-0",
                        "widget Secret old-3")
                .filteredOn(line -> line.contains("ConfigMap")).hasSize(3);
    }

    @Test
    void kindsDeclaredInDeletesAreDeletedWithoutAWordAlsoWhenGivenAsGenericResources() {
        Controller<Widget> controller = start(List.of(ConfigMap.class, Secret.class), (widget, context) -> {
            int size = widget.getSpec().getSize();
            context.apply(desiredConfigMap("settings-" + size));
            GenericKubernetesResource generic = new GenericKubernetesResource();
            generic.setApiVersion("v1");
            generic.setKind("Secret");
            generic.setMetadata(desiredSecret("old-" + size).getMetadata());
            generic.getMetadata().setNamespace("ns");
            context.delete(generic);
            return Result.done();
        });
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap("settings-0") != null && controller.queueStats().idle());

        resize(1);
        eventually().until(() -> configMap("settings-1") != null && configMap("settings-0") == null
                && controller.queueStats().idle());

        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.PRUNE, 1L);
        assertThat(logs.events(Level.WARN, "does not declare")).isEmpty();
        assertThat(reported).isEmpty();
    }

    private Controller<Widget> start(List<Class<? extends HasMetadata>> deletes,
            BiFunction<Widget, ReconcileContext<Widget>, Result> behaviour) {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class, Secret.class)).deletes(deletes).build();
        Controller<Widget> controller = manager.register(config, new RecordingReconciler().behaving(behaviour::apply));
        manager.start();
        return controller;
    }

    private void resize(int size) {
        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setSize(size);
            return widget;
        });
    }

    private static ConfigMap desiredConfigMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
    }

    private static Secret desiredSecret(String name) {
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
                .addToStringData("k", "v").build();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace("ns").withName(name).get();
    }
}
