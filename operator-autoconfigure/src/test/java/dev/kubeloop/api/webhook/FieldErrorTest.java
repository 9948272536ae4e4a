package dev.kubeloop.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Field errors read as Kubernetes' {@code field.Error}, and an invalid answer aggregates them as {@code ToAggregate}. */
class FieldErrorTest {

    @Test
    void aFieldErrorReadsAsKubernetesWritesIt() {
        assertThat(FieldError.invalid("spec.image", "say \"hi\"", "must be pinned").toString())
                .isEqualTo("spec.image: Invalid value: \"say \\\"hi\\\"\": must be pinned");
        assertThat(FieldError.invalid("spec.replicas", 11, "must be at most 10").body())
                .isEqualTo("Invalid value: 11: must be at most 10");
        assertThat(FieldError.invalid("spec.replicas", null, "must be set with spec.image").body())
                .isEqualTo("Invalid value: must be set with spec.image");
        assertThat(FieldError.required("spec.tls.secretName", "").toString())
                .isEqualTo("spec.tls.secretName: Required value");
        assertThat(new FieldError("spec.name", FieldError.Type.TOO_LONG, "abcdef", "may not be more than 5 bytes")
                .body()).isEqualTo("Too long: may not be more than 5 bytes");
        assertThat(FieldError.forbidden("spec.storage", "may not be changed").type().reason())
                .isEqualTo("FieldValueForbidden");
    }

    @Test
    void anInvalidAnswerAggregatesItsErrorsOnceEach() {
        FieldError books = FieldError.invalid("spec.books", 3, "must be even");
        assertThat(Admission.invalid(books).message()).isEqualTo("spec.books: Invalid value: 3: must be even");
        assertThat(Admission.invalid(books, books, FieldError.required("spec.label", "needed")).message())
                .isEqualTo("[spec.books: Invalid value: 3: must be even, spec.label: Required value: needed]");
        assertThat(Admission.invalid(List.of(books)).fieldErrors()).containsExactly(books);
        assertThat(Admission.invalid(books).isAllowed()).isFalse();
        assertThat(Admission.denied("no").fieldErrors()).isEmpty();
    }

    @Test
    void anInvalidAnswerNeedsAnErrorAndAnErrorNeedsAField() {
        assertThatThrownBy(Admission::invalid).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one field error");
        assertThatThrownBy(() -> FieldError.required(" ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field's path");
    }
}
