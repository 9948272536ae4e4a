package dev.kubeloop.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The introspection endpoint says which owned caches are limited, and by which selector. */
class IntrospectionOwnedCachesTest extends MockClusterTestSupport {

    @Test
    @SuppressWarnings("unchecked")
    void eachOwnedTypeShowsTheSelectorOfItsCache() {
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(Service.class)
                .owns(ConfigMap.class, "managed=true").ownsApplied(Secret.class).build(), new RecordingReconciler());

        Map<String, Object> widget = new Introspection(manager).controller("widget").orElseThrow();

        assertThat((List<Map<String, Object>>) widget.get("owns"))
                .extracting(owned -> owned.get("kind") + " " + owned.get("labelSelector"))
                .containsExactly("Service ", "ConfigMap managed=true", "Secret kubeloop.dev/applied-by=widget");
    }
}
