package dev.kubeloop.sample.website;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileTrigger;
import dev.kubeloop.api.ReconcileTriggers;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /websites/{namespace}/{name}/refresh}: reconcile one Website now, ahead of queued
 * changes, as a CI job would after publishing new content somewhere the Website points to. An
 * external trigger: nothing changed in Kubernetes, so no informer event would have queued it.
 *
 * <p>Off unless {@value #ENABLED}{@code =true}: it authenticates nobody, so whoever reaches the
 * application port could queue reconciles. The Helm chart never turns it on and opens no
 * application port (docs/security.md). Only Websites the operator reconciles (in a namespace it
 * watches, in its cache) are queued; any other key is a 404 and queues nothing.
 */
@RestController
@ConditionalOnBooleanProperty(WebsiteRefreshController.ENABLED)
class WebsiteRefreshController {

    static final String ENABLED = "sample.refresh.enabled";

    /** Absent when Kubeloop is switched off (kubeloop.enabled=false). */
    private final ObjectProvider<ReconcileTriggers> triggers;

    WebsiteRefreshController(ObjectProvider<ReconcileTriggers> triggers) {
        this.triggers = triggers;
    }

    @PostMapping("/websites/{namespace}/{name}/refresh")
    ResponseEntity<Map<String, Object>> refresh(@PathVariable String namespace, @PathVariable String name) {
        ReconcileTriggers available = triggers.getIfAvailable();
        if (available == null) {
            return notRunning();
        }
        ReconcileTrigger trigger = available.of(Website.class);
        ObjectKey key = ObjectKey.of(namespace, name);
        if (!trigger.reconciles(key)) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND)
                    .body(Map.of("error", "no Website " + key + " in the namespaces this operator watches"));
        }
        if (!trigger.enqueue(key, ReconcileTrigger.HIGH_PRIORITY)) {
            return notRunning();
        }
        return ResponseEntity.accepted().body(Map.of("queued", key.toString()));
    }

    private static ResponseEntity<Map<String, Object>> notRunning() {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", "the operator is not running"));
    }
}
