package dev.kubeloop.runtime.cache;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.runtime.Causes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the objects one informer leaves out of its cache because they do not read as its Java
 * type (see {@link TolerantListerWatcher}): one WARN line and one Warning Event
 * ({@value #REASON}) on the object, naming the field and why, once per version of the object, so
 * that re-lists do not repeat the report. The message never contains the field's value: it could
 * be a secret.
 *
 * <p>Thread-safe: called from the informer's list callbacks; the versions already reported are a
 * concurrent map, bounded by clearing it when it grows past {@value #REMEMBERED} (after which a
 * still-broken object is reported once more).
 */
final class UnreadableObjects {

    static final String REASON = "UnreadableObject";
    private static final int REMEMBERED = 10_000;
    private static final Logger log = LoggerFactory.getLogger(UnreadableObjects.class);

    private final Class<? extends HasMetadata> type;
    private final String informer;
    private final EventRecorder events;
    /** Object key → resource version already reported. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();

    UnreadableObjects(Class<? extends HasMetadata> type, String informer, EventRecorder events) {
        this.type = type;
        this.informer = informer;
        this.events = events;
    }

    void report(GenericKubernetesResource object, RuntimeException error) {
        if (object.getMetadata() == null) {
            return;
        }
        String namespace = object.getMetadata().getNamespace();
        String key = namespace == null ? object.getMetadata().getName() : namespace + "/" + object.getMetadata().getName();
        String version = Objects.requireNonNullElse(object.getMetadata().getResourceVersion(), "");
        if (version.equals(reported.put(key, version))) {
            return;
        }
        if (reported.size() > REMEMBERED) {
            reported.clear();
        }
        String field = field(error);
        String reason = reason(error);
        log.warn("Object left out of the cache, it does not read as {}: informer={} kind={} key={} "
                + "resourceVersion={} field={} reason={}", type.getSimpleName(), informer, HasMetadata.getKind(type),
                key, version, field, reason);
        // the event writer names the object by its apiVersion and kind, which a list's items may omit
        object.setApiVersion(Objects.requireNonNullElseGet(object.getApiVersion(), () -> HasMetadata.getApiVersion(type)));
        object.setKind(Objects.requireNonNullElseGet(object.getKind(), () -> HasMetadata.getKind(type)));
        events.warning(object, REASON, "The operator cannot read this object (field " + field + ": " + reason
                + ") and ignores it until it is fixed.");
    }

    /** The path of the field at fault, e.g. {@code spec.size} or {@code spec.ports[0]}; "?" if unknown. */
    static String field(Throwable error) {
        JsonMappingException mapping = find(error, JsonMappingException.class);
        if (mapping == null || mapping.getPath().isEmpty()) {
            return "?";
        }
        return mapping.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
    }

    /** Jackson's explanation without its location and reference chain, e.g. "Cannot deserialize value of type `int` ...". */
    static String reason(Throwable error) {
        JacksonException jackson = find(error, JacksonException.class);
        String message = jackson != null ? jackson.getOriginalMessage() : error.getMessage();
        if (message == null) {
            return error.getClass().getSimpleName();
        }
        // Jackson quotes the offending value (from String "x", from String value ('x')): keep the type, drop the value
        return message.lines().findFirst().orElse("").replaceAll("from String \"[^\"]*\"", "from a String")
                .replaceAll("\\('[^']*'\\)", "(value hidden)");
    }

    private static <E extends Throwable> E find(Throwable error, Class<E> wanted) {
        return Causes.find(error, wanted).orElse(null);
    }
}
