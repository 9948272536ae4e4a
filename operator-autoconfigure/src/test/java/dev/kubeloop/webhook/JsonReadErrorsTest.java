package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * What a user reads when their object does not read as the Java type: the field and what it may
 * hold, never the value they wrote (it may be a secret).
 */
class JsonReadErrorsTest {

    enum ConcurrencyPolicy {
        @JsonProperty("Allow") ALLOW,
        @JsonProperty("Forbid") FORBID,
        REPLACE
    }

    public static class Schedule {
        public ConcurrencyPolicy concurrencyPolicy;
        public Integer limit;
    }

    private final Json json = new Json(Reviews.SERIALIZATION);

    @Test
    void anEnumFieldNamesTheValuesItMayHoldAsTheyAreWritten() {
        ObjectNode schedule = Reviews.JSON.createObjectNode().put("concurrencyPolicy", "Sometimes-secret");

        assertThatThrownBy(() -> json.read(schedule, Schedule.class, "uid", "an object"))
                .isInstanceOf(BadReview.class)
                .hasMessage("an object does not read as Schedule: concurrencyPolicy must be one of Allow, Forbid, REPLACE")
                .hasMessageNotContaining("Sometimes-secret");
    }

    @Test
    void otherFieldsStillNameTheirType() {
        ObjectNode schedule = Reviews.JSON.createObjectNode().put("limit", "many");

        assertThatThrownBy(() -> json.read(schedule, Schedule.class, "uid", "an object"))
                .hasMessage("an object does not read as Schedule: limit must be a whole number");
        assertThat(Json.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
