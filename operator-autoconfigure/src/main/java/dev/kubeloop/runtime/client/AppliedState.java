package dev.kubeloop.runtime.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Whether an object as stored still carries everything an apply body sets: every field of the body
 * is in the object with the same value, whatever else the object has (fields the server defaulted,
 * other managers' fields, status). Lists must have the body's length and carry its entries in order
 * (entries may have defaulted fields). Numbers compare by value (1 and 1.0 are equal).
 *
 * <p>It cannot see a field the apply stopped setting, which server-side apply removes: callers use
 * it only for a body identical to the last one applied. A value the server normalizes (a quantity
 * such as 1000m for 1) makes it false, which costs an apply that changes nothing. Stateless.
 */
public final class AppliedState {

    private AppliedState() {
    }

    /** Whether {@code stored} carries every field of {@code applied} with the same value. */
    public static boolean carries(JsonNode stored, JsonNode applied) {
        if (stored == null || stored.isNull() || stored.isMissingNode()) {
            return applied.isNull();
        }
        if (applied.isObject()) {
            if (!stored.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : applied.properties()) {
                if (!carries(stored.get(field.getKey()), field.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (applied.isArray()) {
            if (!stored.isArray() || stored.size() != applied.size()) {
                return false;
            }
            for (int i = 0; i < applied.size(); i++) {
                if (!carries(stored.get(i), applied.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (applied.isNumber() && stored.isNumber()) {
            return applied.decimalValue().compareTo(stored.decimalValue()) == 0;
        }
        return applied.equals(stored);
    }
}
