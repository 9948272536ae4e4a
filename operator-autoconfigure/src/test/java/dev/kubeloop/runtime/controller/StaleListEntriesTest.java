package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.api.ApiRefusal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What is stale in a list merged by key when the API server refuses an apply with 422; the stored
 * objects are as kube-apiserver 1.20 returned them (managedFields included) after
 * {@code kubectl patch} changed a Service's port from 80 to 8080.
 */
class StaleListEntriesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The Service after the patch: one port, 8080, whose entry kubectl-patch set. */
    private static final String PATCHED_SERVICE = """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"s1","namespace":"default","resourceVersion":"42",
             "managedFields":[
              {"manager":"op","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:selector":{"f:app":{}}}}},
              {"manager":"kubectl-patch","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:ports":
                {"k:{\\"port\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}}}}}]},
             "spec":{"selector":{"app":"x"},"ports":[{"port":8080,"protocol":"TCP","targetPort":80}]}}
            """;

    private static final String APPLIED_SERVICE = """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"s1"},
             "spec":{"selector":{"app":"x"},"ports":[{"port":80,"protocol":"TCP"}]}}
            """;

    private static final ApiRefusal TWO_UNNAMED_PORTS = new ApiRefusal(422, "Invalid",
            "Service \"s1\" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]",
            List.of(new ApiRefusal.Cause("spec.ports[0].name", "Required value", "FieldValueRequired"),
                    new ApiRefusal.Cause("spec.ports[1].name", "Required value", "FieldValueRequired")));

    @Test
    void thePortAnotherManagerSetIsStaleAndItsManagerNamed() throws Exception {
        List<StaleListEntries.Entry> stale = StaleListEntries.find(tree(PATCHED_SERVICE), tree(APPLIED_SERVICE),
                TWO_UNNAMED_PORTS);

        assertThat(stale).singleElement().satisfies(entry -> {
            assertThat(entry.list()).isEqualTo("spec.ports");
            assertThat(entry.pointer()).isEqualTo("/spec/ports/0");
            assertThat(entry.key().toString()).isEqualTo("{\"port\":8080,\"protocol\":\"TCP\"}");
            assertThat(entry.managers()).containsExactly("kubectl-patch");
        });
        assertThat(StaleListEntries.describe("Service", stale)).contains("merges spec.ports by key",
                "{\"port\":8080,\"protocol\":\"TCP\"} (set by kubectl-patch)", "Remove it from the Service",
                "ApplyOptions.defaults().removeStaleEntries()");
    }

    @Test
    void anEntryTheBodyStillSetsIsNotStaleEvenWithoutItsDefaultedProtocol() throws Exception {
        String body = APPLIED_SERVICE.replace("{\"port\":80,\"protocol\":\"TCP\"}", "{\"port\":8080}");

        assertThat(StaleListEntries.find(tree(PATCHED_SERVICE), tree(body), TWO_UNNAMED_PORTS)).isEmpty();
    }

    @Test
    void aRefusalOfAFieldOutsideAnyListSaysNothingMore() throws Exception {
        ApiRefusal badName = new ApiRefusal(422, "Invalid", "invalid name",
                List.of(new ApiRefusal.Cause("metadata.name", "a DNS-1035 label", "FieldValueInvalid")));

        assertThat(StaleListEntries.find(tree(PATCHED_SERVICE), tree(APPLIED_SERVICE), badName)).isEmpty();
    }

    @Test
    void theListIsReplacedByTheAppliedEntriesOnceLockedOnTheVersionReadSoThatItIsNeverLeftEmpty() throws Exception {
        List<StaleListEntries.Entry> stale = StaleListEntries.find(tree(PATCHED_SERVICE), tree(APPLIED_SERVICE),
                TWO_UNNAMED_PORTS);

        assertThat(StaleListEntries.replacement(stale, "42")).isEqualTo("[{\"op\":\"test\",\"path\":"
                + "\"/metadata/resourceVersion\",\"value\":\"42\"},{\"op\":\"replace\",\"path\":\"/spec/ports\","
                + "\"value\":[{\"port\":80,\"protocol\":\"TCP\"}]}]");
    }

    @Test
    void anEnvVarOfANestedListIsFoundThroughItsContainersKey() throws Exception {
        String stored = """
                {"metadata":{"resourceVersion":"7","managedFields":[
                  {"manager":"op","fieldsV1":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{"f:env":{
                    "k:{\\"name\\":\\"A\\"}":{}}}}}}},
                  {"manager":"kubectl-edit","fieldsV1":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{"f:env":{
                    "k:{\\"name\\":\\"B\\"}":{}}}}}}}]},
                 "spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}
                """;
        String body = """
                {"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"}]}]}}
                """;
        ApiRefusal refusal = new ApiRefusal(422, "Invalid", "invalid",
                List.of(new ApiRefusal.Cause("spec.containers[0].env[1].value", "bad", null)));

        assertThat(StaleListEntries.find(tree(stored), tree(body), refusal)).singleElement().satisfies(entry -> {
            assertThat(entry.pointer()).isEqualTo("/spec/containers/0/env/1");
            assertThat(entry.managers()).containsExactly("kubectl-edit");
        });
    }

    private static JsonNode tree(String json) throws Exception {
        return JSON.readTree(json);
    }
}
