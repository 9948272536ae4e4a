package dev.kubeloop.autoconfigure.scan;

import dev.kubeloop.api.Reconciler;
import dev.kubeloop.testing.RecordingReconciler;
import io.fabric8.kubernetes.api.model.ConfigMap;

/** Found by scanning the application's package: not a @Component, not declared as a bean. */
@Reconciler(workers = 2, owns = ConfigMap.class, resyncPeriod = "1h")
public class ScannedWidgetReconciler extends RecordingReconciler {
}
