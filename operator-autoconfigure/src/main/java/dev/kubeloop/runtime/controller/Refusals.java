package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The policy for requests the API server refuses because of the request itself, which no retry
 * can fix by itself, all of it here: a 403 Forbidden (a permission the operator lacks; see
 * {@link Forbidden}) and a 400 or 422 (the desired object is invalid: a name that is not a DNS
 * label, a label value over 63 characters; see {@link ApiRefusal}). Either is still retried with
 * the key's backoff (whoever fixes the Role or the spec should not have to restart the operator),
 * but reported as what it is, instead of a stack trace per retry:
 *
 * <ul>
 *   <li>403: a Warning event {@value Forbidden#EVENT_REASON} on every retry (identical events
 *       aggregate into one whose count shows that it lasts), one ERROR line per key (again only if
 *       what is refused changes);
 *   <li>403 because the object's namespace is being deleted ({@link ApiRefusal#namespaceTerminating()}):
 *       one WARN line per key and no Event (the namespace would refuse it too);
 *   <li>400/422: one ERROR line and one Warning event {@value #INVALID_REASON} per key and
 *       generation, naming the object and the API server's field message;
 *   <li>an object {@code apply} would not take over ({@link ForeignObjectException}, refused
 *       before sending): one WARN line and one Warning event
 *       {@value ForeignObjectException#EVENT_REASON} per key and generation, naming the object and
 *       whoever controls it;
 *   <li>the recovery once, at INFO; the stack trace only at DEBUG.
 * </ul>
 *
 * <p>State ownership: the keys whose last failure was a refusal, with what was reported, in a
 * concurrent map whose entry for a key only the worker holding that key writes (the queue never
 * hands a key to two workers). An entry goes when its key succeeds, fails terminally or its object
 * is gone.
 */
final class Refusals {

    static final String INVALID_REASON = "Invalid";

    // the controller's logger, like every other line about a reconcile
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String controller;
    private final EventRecorder events;
    private final ConcurrentHashMap<ObjectKey, String> reported = new ConcurrentHashMap<>();

    Refusals(String controller, EventRecorder events) {
        this.controller = controller;
        this.events = events;
    }

    /**
     * Reports a failed reconcile of {@code object} if {@code error} is a refusal.
     *
     * @return true if it was one and has been reported (the caller logs nothing more)
     */
    boolean failed(ObjectKey key, HasMetadata object, int retries, Throwable error) {
        Optional<ApiRefusal> terminating = ApiRefusal.of(error).filter(ApiRefusal::namespaceTerminating);
        if (terminating.isPresent()) {
            // no permission to grant, nothing wrong with the object; and no Event: the namespace refuses those too
            report(key, terminating.get().describe(), Level.WARN, "Reconcile refused because its namespace is being "
                    + "deleted (a create there is refused), retrying with backoff (logged once per object): "
                    + "controller={} key={} retry={}: {}", retries);
            log.debug("Stack trace: controller={} key={}", controller, key, error);
            return true;
        }
        Optional<Forbidden> forbidden = Forbidden.in(error);
        if (forbidden.isPresent()) {
            String refused = forbidden.get().describe();
            if (object != null) {
                events.warning(object, Forbidden.EVENT_REASON, refused);
            }
            report(key, refused, Level.ERROR, "Reconcile forbidden, retrying with backoff (logged once per object until it "
                    + "recovers): controller={} key={} retry={}: {}", retries);
            log.debug("Stack trace: controller={} key={}", controller, key, error);
            return true;
        }
        Optional<ApiRefusal> refusal = ApiRefusal.of(error).filter(ApiRefusal::invalid);
        if (refusal.isEmpty()) {
            return false;
        }
        long generation = object == null || object.getMetadata().getGeneration() == null ? 0
                : object.getMetadata().getGeneration();
        String described = refusal.get().describe();
        boolean foreign = refusal.get().foreign();
        // once per generation: a new spec may well be refused for the same reason, and deserves a word
        if (report(key, generation + "\u0000" + described, foreign ? Level.WARN : Level.ERROR, foreign
                ? "Reconcile refused: apply will not take over an object this controller does not control, retrying "
                        + "with backoff (logged once per object and generation): controller={} key={} retry={}: {}"
                : "Reconcile refused as invalid by the API server, retrying with backoff (logged once per object and "
                        + "generation): controller={} key={} retry={}: {}", retries) && object != null) {
            events.warning(object, foreign ? ForeignObjectException.EVENT_REASON : INVALID_REASON, described);
        }
        log.debug("Stack trace: controller={} key={}", controller, key, error);
        return true;
    }

    /** Logs {@code what} once per key (again when it changes); returns whether it logged. */
    private boolean report(ObjectKey key, String what, Level level, String format, int retries) {
        if (what.equals(reported.put(key, what))) {
            log.debug("Reconcile still refused, retrying with backoff: controller={} key={} retry={}", controller, key,
                    retries);
            return false;
        }
        int separator = what.indexOf('\u0000');
        log.atLevel(level).log(format, controller, key, retries, separator < 0 ? what : what.substring(separator + 1));
        return true;
    }

    /** {@code key}'s object is gone or failed for good: its refusals are over, with nothing to log. */
    void forget(ObjectKey key) {
        reported.remove(key);
    }

    /** A reconcile of {@code key} did not fail: logs the end of its refusals, once. */
    void succeeded(ObjectKey key, int retries) {
        if (reported.remove(key) != null) {
            log.info("Reconcile no longer refused, recovered: controller={} key={} after {} retries", controller, key,
                    retries);
        }
    }
}
