package dev.kubeloop.manifest;

import dev.kubeloop.runtime.controller.ControllerConfig;
import java.util.Objects;

/**
 * One reconciler as its RBAC sees it: its validated settings (primary, owned, deleted and watched
 * kinds) and whether it implements {@code Cleaner} (then the runtime patches its finalizer onto
 * primaries).
 */
public record ReconcilerAccess(ControllerConfig<?> config, boolean cleaner) {

    public ReconcilerAccess {
        Objects.requireNonNull(config, "config");
    }
}
