package dev.kubeloop.acceptance.cronjob;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The operator: Kubeloop's auto-configuration finds {@link CronJobReconciler} (a {@code @Reconciler}
 * bean) and runs it against the cluster of the kubeconfig, or inside a pod its service account's;
 * with no cluster configured, against an embedded API server ({@link EmbeddedApiServerConfiguration}).
 */
@SpringBootApplication
public class OperatorApplication {

    public static void main(String[] args) {
        SpringApplication.run(OperatorApplication.class, args);
    }
}
