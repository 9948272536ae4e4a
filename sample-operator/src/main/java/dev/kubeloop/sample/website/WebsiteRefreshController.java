package dev.kubeloop.sample.website;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileTrigger;
import dev.kubeloop.api.ReconcileTriggers;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /websites/{namespace}/{name}/refresh}: reconcile one Website now, ahead of queued
 * changes, as a CI job would after publishing new content somewhere the Website points to. An
 * external trigger: nothing changed in Kubernetes, so no informer event would have queued it.
 */
@RestController
class WebsiteRefreshController {

    /** Absent when Kubeloop is switched off (kubeloop.enabled=false). */
    private final ObjectProvider<ReconcileTriggers> triggers;

    WebsiteRefreshController(ObjectProvider<ReconcileTriggers> triggers) {
        this.triggers = triggers;
    }

    @PostMapping("/websites/{namespace}/{name}/refresh")
    ResponseEntity<Map<String, Object>> refresh(@PathVariable String namespace, @PathVariable String name) {
        ReconcileTriggers available = triggers.getIfAvailable();
        ObjectKey key = ObjectKey.of(namespace, name);
        if (available == null || !available.of(Website.class).enqueue(key, ReconcileTrigger.HIGH_PRIORITY)) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .body(Map.of("error", "the operator is not running"));
        }
        return ResponseEntity.accepted().body(Map.of("queued", key.toString()));
    }
}
