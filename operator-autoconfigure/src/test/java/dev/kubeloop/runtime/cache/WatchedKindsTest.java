package dev.kubeloop.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.testing.ConditionedWidget;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * The kinds registered for the informers' watch events: a custom resource class alone for its kind
 * is read at once; two classes for one kind, an application's own registration and fabric8's
 * built-in kinds are left to be read as fabric8 reads them.
 */
class WatchedKindsTest {

    private static final String API_VERSION = "kubeloop.dev/v1";
    /** A Widget watch event whose status has a condition, which {@link Widget}'s status cannot hold. */
    private static final String EVENT = "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"kubeloop.dev/v1\","
            + "\"kind\":\"Widget\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"resourceVersion\":\"7\"},"
            + "\"spec\":{\"color\":\"blue\"},\"status\":{\"message\":\"hi\",\"conditions\":[{\"type\":\"Ready\","
            + "\"status\":\"True\",\"reason\":\"Done\",\"message\":\"\",\"lastTransitionTime\":\"2026-11-27T00:00:00Z\"}]}}}";

    /** As the starter's client reads: fields the class does not have are ignored (KubeloopAutoConfiguration). */
    private final KubernetesSerialization serialization = new KubernetesSerialization(
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true);

    @Test
    void aCustomResourceClassAloneForItsKindReadsItsWatchEventsAtOnce() {
        assertThat(read()).as("before: fabric8 reads an unregistered kind as a generic object")
                .isInstanceOf(GenericKubernetesResource.class);

        WatchedKinds.informing(serialization, Widget.class);
        WatchedKinds.informing(serialization, Widget.class); // a second informer of the same class

        assertThat(serialization.getRegisteredKubernetesResource(API_VERSION, "Widget")).isEqualTo(Widget.class);
        assertThat(read()).isInstanceOfSatisfying(Widget.class,
                widget -> assertThat(widget.getStatus().getMessage()).isEqualTo("hi"));
    }

    /**
     * With the kind registered as the first class, the second class's events would be read as the
     * first and converted, and lose the condition only the second has; so the kind is read as
     * fabric8 reads an unregistered one, and converted to each class from everything it had.
     */
    @Test
    void twoClassesForOneKindAreReadGenericallySoThatNeitherLosesAField() {
        WatchedKinds.informing(serialization, Widget.class);
        assertThat(serialization.convertValue(read(), ConditionedWidget.class).getStatus().getConditions())
                .as("read as Widget, the condition is lost").isNull();

        WatchedKinds.informing(serialization, ConditionedWidget.class);

        assertThat(serialization.getRegisteredKubernetesResource(API_VERSION, "Widget"))
                .isEqualTo(GenericKubernetesResource.class);
        assertThat(serialization.convertValue(read(), ConditionedWidget.class).getStatus().getConditions())
                .singleElement().satisfies(condition -> assertThat(condition.getType()).isEqualTo("Ready"));
        WatchedKinds.informing(serialization, Widget.class);
        assertThat(serialization.getRegisteredKubernetesResource(API_VERSION, "Widget"))
                .as("still two classes").isEqualTo(GenericKubernetesResource.class);
    }

    @Test
    void theApplicationsOwnRegistrationIsLeftAsItIs() {
        serialization.registerKubernetesResource(ConditionedWidget.class);

        WatchedKinds.informing(serialization, Widget.class);

        assertThat(serialization.getRegisteredKubernetesResource(API_VERSION, "Widget"))
                .isEqualTo(ConditionedWidget.class);
    }

    @Test
    void builtInKindsAndGenericObjectsAreLeftAsTheyAre() {
        WatchedKinds.informing(serialization, ConfigMap.class);
        WatchedKinds.informing(serialization, GenericKubernetesResource.class);

        assertThat(serialization.getRegisteredKubernetesResource("v1", "ConfigMap")).isEqualTo(ConfigMap.class);
        assertThat(read()).isInstanceOf(GenericKubernetesResource.class);
    }

    private Object read() {
        return serialization.unmarshal(EVENT, WatchEvent.class).getObject();
    }
}
