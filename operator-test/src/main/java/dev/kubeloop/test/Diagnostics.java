package dev.kubeloop.test;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.manager.ControllerManager;
import java.util.List;

/** What a failed wait prints: per controller, what is queued and in flight and the last errors. */
final class Diagnostics {

    private static final int ERRORS_SHOWN = 5;

    private Diagnostics() {
    }

    static String describe(ControllerManager manager, List<ObjectKey> keys) {
        StringBuilder out = new StringBuilder();
        for (Controller<?> controller : manager.controllers()) {
            ControllerStatus status = controller.status();
            out.append("controller ").append(status.name()).append(": synced=").append(status.synced())
                    .append(", queued=").append(status.queue().depth())
                    .append(", waiting=").append(status.queue().waiting())
                    .append(", in flight=").append(status.inFlight().stream()
                            .map(f -> f.key() + " for " + f.age().toMillis() + " ms").toList())
                    .append(", outcomes=").append(status.outcomes()).append('\n');
            status.recentErrors().stream()
                    .filter(e -> keys.isEmpty() || keys.contains(e.key()))
                    .limit(ERRORS_SHOWN)
                    .forEach(e -> out.append("  last error ").append(e.key()).append(" (attempt ").append(e.attempt())
                            .append(", ").append(e.outcome()).append(" at ").append(e.time()).append("): ")
                            .append(e.error()).append(": ").append(e.message()).append('\n'));
            for (ObjectKey key : keys) {
                out.append("  ").append(key).append(" is ").append(controller.state(key).name().toLowerCase())
                        .append('\n');
            }
        }
        return out.toString();
    }
}
