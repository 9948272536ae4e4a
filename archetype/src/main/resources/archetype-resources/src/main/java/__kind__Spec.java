package ${package};

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/** What the user wants. The schema annotations become the CRD's validation: the API server enforces them. */
public class ${kind}Spec {

    @JsonPropertyDescription("The message the operator publishes in the ${kind}'s ConfigMap#if ($webhooks == 'true'); left empty, the defaulter fills it in#end.")
    @Size(max = 1024)
    private String message = "";

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }
}
