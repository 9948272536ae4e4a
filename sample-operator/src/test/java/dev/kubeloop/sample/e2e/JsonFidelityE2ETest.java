package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API server the e2e tests run on is the real thing: a custom resource's fields of every
 * schema type survive a create and a read exactly as upstream Kubernetes 1.20 keeps them. Sent as
 * raw JSON and read back raw, so that no client-side mapping hides what the server did.
 *
 * <p>Pins the build of {@code scripts/lib/kubernetes-build.sh}: kube-apiserver 1.20 compiled with
 * Go 1.19 refused {@code ""} in a string field ({@code must be of type string: "null"}) until the
 * build patched go-openapi's null test; a ConfigMap's {@code ""} always passed, which is why only a
 * CRD shows it.
 */
class JsonFidelityE2ETest {

    private static final String GROUP = "fidelity.e2e.kubeloop.dev";
    private static final String CRD = "samples." + GROUP;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final UnaryOperator<HttpRequest.Builder> DELETE = b -> b.delete("application/json", "{}");

    private static KubernetesClient client;

    /** Every schema type once, nullable and not, plus a free-form subtree. */
    private static final String CRD_YAML = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: %s
            spec:
              group: %s
              scope: Cluster
              names: {plural: samples, singular: sample, kind: Sample, listKind: SampleList}
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          message: {type: string}
                          nullableMessage: {type: string, nullable: true}
                          count: {type: integer}
                          ratio: {type: number}
                          flag: {type: boolean}
                          object:
                            type: object
                            properties:
                              name: {type: string}
                          labels:
                            type: object
                            additionalProperties: {type: string}
                          items:
                            type: array
                            items: {type: string}
                          numbers:
                            type: array
                            items: {type: integer}
                          free:
                            type: object
                            x-kubernetes-preserve-unknown-fields: true
            """.formatted(CRD, GROUP);

    @BeforeAll
    static void installTheCrd() {
        client = new KubernetesClientBuilder().build();
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions()
                .load(new ByteArrayInputStream(CRD_YAML.getBytes(StandardCharsets.UTF_8))).item();
        client.resource(crd).createOr(existing -> existing.update());
        Crds.awaitEstablished(client, CRD, 60);
    }

    @AfterAll
    static void removeTheCrd() {
        if (client != null) {
            client.apiextensions().v1().customResourceDefinitions().withName(CRD).delete();
            client.close();
        }
    }

    /** name, the spec sent, the spec the server keeps (null: the one sent). */
    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of("empty-string", "{\"message\":\"\"}", null),
                Arguments.of("empty-string-nullable", "{\"nullableMessage\":\"\"}", null),
                Arguments.of("empty-string-nested", "{\"object\":{\"name\":\"\"},\"labels\":{\"k\":\"\"}}", null),
                Arguments.of("empty-string-in-a-list", "{\"items\":[\"\",\"a\",\"\"]}", null),
                Arguments.of("empty-string-free-form", "{\"free\":{\"s\":\"\",\"deep\":{\"t\":\"\"}}}", null),
                Arguments.of("zero-values", "{\"count\":0,\"ratio\":0,\"flag\":false}", null),
                Arguments.of("null-where-nullable", "{\"nullableMessage\":null}", null),
                // upstream 1.20 prunes a null from a field that is neither nullable nor defaulted
                Arguments.of("null-where-not-nullable", "{\"message\":null,\"flag\":true}", "{\"flag\":true}"),
                Arguments.of("null-free-form", "{\"free\":{\"n\":null,\"list\":[null,1]}}", null),
                Arguments.of("absent", "{}", null),
                Arguments.of("empty-map-and-list", "{\"object\":{},\"labels\":{},\"items\":[],\"free\":{\"m\":{},\"l\":[]}}",
                        null),
                Arguments.of("large-integers", "{\"count\":9007199254740993,\"numbers\":[9223372036854775807,"
                        + "-9223372036854775808,9007199254740993]}", null),
                Arguments.of("large-integers-free-form", "{\"free\":{\"big\":9223372036854775807,\"odd\":9007199254740993}}",
                        null),
                Arguments.of("fractions", "{\"ratio\":-0.25,\"free\":{\"tiny\":1.5e-300,\"huge\":1.7976931348623157e308}}",
                        null),
                Arguments.of("unicode", "{\"message\":\"héllo wörld ✓ 日本語 😀 𝄞\",\"labels\":{\"ключ\":\"значение\"}}",
                        null),
                Arguments.of("escapes", "{\"message\":\"quote \\\" backslash \\\\ slash \\/ nl \\n tab \\t cr \\r "
                        + "ctl \\u0001 nul \\u0000 html <&> \\u2028 pair \\ud83d\\ude00\"}", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void aCustomResourcesFieldsRoundTripExactly(String name, String sent, String kept) throws Exception {
        String body = "{\"apiVersion\":\"" + GROUP + "/v1\",\"kind\":\"Sample\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":" + sent + "}";
        JsonNode expected = JSON.readTree(kept == null ? sent : kept);
        String url = client.getMasterUrl().toString().replaceAll("/$", "") + "/apis/" + GROUP + "/v1/samples";
        send(DELETE, url + "/" + name);

        HttpResponse<String> created = send(b -> b.post("application/json", body), url);

        assertThat(created.code()).as("create answered %s", created.body()).isEqualTo(201);
        assertThat(JSON.readTree(created.body()).get("spec")).as("the create's answer").isEqualTo(expected);
        HttpResponse<String> read = send(UnaryOperator.identity(), url + "/" + name);
        assertThat(read.code()).isEqualTo(200);
        assertThat(JSON.readTree(read.body()).get("spec")).as("read back").isEqualTo(expected);
        send(DELETE, url + "/" + name);
    }

    private static HttpResponse<String> send(UnaryOperator<HttpRequest.Builder> method, String url) throws Exception {
        HttpRequest request = method.apply(client.getHttpClient().newHttpRequestBuilder().uri(url)
                .header("Accept", "application/json")).build();
        return client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    }
}
