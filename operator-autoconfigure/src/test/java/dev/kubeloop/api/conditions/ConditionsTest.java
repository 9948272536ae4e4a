package dev.kubeloop.api.conditions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConditionsTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00.700Z");
    private static final Instant T1 = Instant.parse("2026-11-23T10:05:00Z");

    private final List<Condition> conditions = new ArrayList<>();

    @Test
    void aNewConditionGetsEveryFieldAndItsTransitionTimeToTheSecond() {
        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.FALSE, "Progressing", "1/3 replicas ready", 4L,
                T0)).isTrue();

        assertThat(conditions).singleElement().satisfies(condition -> {
            assertThat(condition.getType()).isEqualTo("Ready");
            assertThat(condition.getStatus()).isEqualTo("False");
            assertThat(condition.getReason()).isEqualTo("Progressing");
            assertThat(condition.getMessage()).isEqualTo("1/3 replicas ready");
            assertThat(condition.getObservedGeneration()).isEqualTo(4L);
            assertThat(condition.getLastTransitionTime()).isEqualTo("2026-11-23T10:00:00Z");
        });
    }

    @Test
    void theTransitionTimeChangesOnlyWhenTheStatusFlips() {
        Conditions.set(conditions, "Ready", ConditionStatus.FALSE, "Progressing", "1/3 ready", 4L, T0);

        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.FALSE, "Progressing", "2/3 ready", 4L, T1))
                .isTrue();
        assertThat(conditions.get(0).getLastTransitionTime()).isEqualTo("2026-11-23T10:00:00Z");
        assertThat(conditions.get(0).getMessage()).isEqualTo("2/3 ready");

        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "3/3 ready", 4L, T1))
                .isTrue();
        assertThat(conditions.get(0).getLastTransitionTime()).isEqualTo("2026-11-23T10:05:00Z");
        assertThat(conditions).hasSize(1);
    }

    @Test
    void settingWhatTheConditionAlreadySaysChangesNothing() {
        Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "3/3 ready", 4L, T0);
        Condition before = new Condition(T0.toString(), "3/3 ready", 4L, "Available", "True", "Ready");
        before.setLastTransitionTime(conditions.get(0).getLastTransitionTime());

        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "3/3 ready", 4L, T1))
                .isFalse();

        assertThat(conditions).containsExactly(before);
    }

    @Test
    void aNewGenerationIsAChange() {
        Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "3/3 ready", 4L, T0);

        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "3/3 ready", 5L, T1))
                .isTrue();
        assertThat(conditions.get(0).getObservedGeneration()).isEqualTo(5L);
        assertThat(conditions.get(0).getLastTransitionTime()).isEqualTo("2026-11-23T10:00:00Z");
    }

    @Test
    void lookups() {
        Conditions.set(conditions, "Ready", ConditionStatus.TRUE, "Available", "", 4L, T0);
        Conditions.set(conditions, "Degraded", ConditionStatus.FALSE, "AsExpected", "", 4L, T0);

        assertThat(Conditions.isTrue(conditions, "Ready")).isTrue();
        assertThat(Conditions.isFalse(conditions, "Ready")).isFalse();
        assertThat(Conditions.isFalse(conditions, "Degraded")).isTrue();
        assertThat(Conditions.isTrue(conditions, "Progressing")).isFalse();
        assertThat(Conditions.isFalse(conditions, "Progressing")).as("absent is neither").isFalse();
        assertThat(Conditions.isCurrent(conditions, "Ready", ConditionStatus.TRUE, 4)).isTrue();
        assertThat(Conditions.isCurrent(conditions, "Ready", ConditionStatus.TRUE, 5)).as("older spec").isFalse();
        assertThat(Conditions.find(conditions, "Degraded")).map(Condition::getReason).contains("AsExpected");
        assertThat(Conditions.find(null, "Ready")).isEmpty();
        assertThat(Conditions.remove(conditions, "Degraded")).isTrue();
        assertThat(Conditions.remove(conditions, "Degraded")).isFalse();
        assertThat(conditions).extracting(Condition::getType).containsExactly("Ready");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not camel", "9Lives", "Trailing,", "Has-Dash", "Dot.Ted"})
    void aReasonThatIsNotCamelCaseIsRefused(String reason) {
        assertThatThrownBy(() -> Conditions.set(conditions, "Ready", ConditionStatus.TRUE, reason, "", 1L, T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not CamelCase");
        assertThat(conditions).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ReplicasNotReady", "A", "Some_Reason", "Image:Pull,Failed", "HTTP2"})
    void camelCaseReasonsAreAccepted(String reason) {
        assertThat(Conditions.set(conditions, "Ready", ConditionStatus.TRUE, reason, "", 1L, T0)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "-Ready", "Example.com/Ready", "a/b/c"})
    void aTypeThatIsNotAQualifiedNameIsRefused(String type) {
        assertThatThrownBy(() -> Conditions.set(conditions, type, ConditionStatus.TRUE, "Fine", "", 1L, T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a qualified name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Ready", "example.com/Ready", "ContainersReady", "my-type_1.x"})
    void qualifiedTypesAreAccepted(String type) {
        assertThat(Conditions.set(conditions, type, ConditionStatus.UNKNOWN, "Checking", "", 1L, T0)).isTrue();
        assertThat(conditions.get(0).getStatus()).isEqualTo("Unknown");
    }
}
