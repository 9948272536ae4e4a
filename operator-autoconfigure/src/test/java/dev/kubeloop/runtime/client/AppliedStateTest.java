package dev.kubeloop.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AppliedStateTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "same object | {'a':1,'b':{'c':'x'}} | {'a':1,'b':{'c':'x'}} | true",
        "fields others set or the server defaulted | {'a':1,'b':{'c':'x','d':2},'status':{'r':1}} | {'a':1,'b':{'c':'x'}} | true",
        "a changed value | {'a':2} | {'a':1} | false",
        "a missing field | {'b':1} | {'a':1} | false",
        "numbers by value | {'a':1.0} | {'a':1} | true",
        "a number as text is not the number | {'a':'1'} | {'a':1} | false",
        "list entries with defaulted fields | {'l':[{'n':'x','p':'TCP'}]} | {'l':[{'n':'x'}]} | true",
        "a list of another length | {'l':[{'n':'x'},{'n':'y'}]} | {'l':[{'n':'x'}]} | false",
        "list entries in another order | {'l':[{'n':'y'},{'n':'x'}]} | {'l':[{'n':'x'},{'n':'y'}]} | false",
        "an object where a value was | {'a':{'b':1}} | {'a':1} | false",
        "an empty object carries an empty body | {} | {} | true",
    })
    void carries(String description, String stored, String applied, boolean expected) {
        assertThat(AppliedState.carries(json(stored), json(applied))).as(description).isEqualTo(expected);
    }

    private static JsonNode json(String text) {
        return JSON.unmarshal(text.replace('\'', '"'), JsonNode.class);
    }
}
