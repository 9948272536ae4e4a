package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.WebhookSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.springframework.core.env.Environment;

/**
 * Who a development registration belongs to, and the guard that keeps it out of clusters: the
 * configurations are named {@code kubeloop-dev-<application>-<machine>} and labelled
 * {@code kubeloop.dev/dev-registration=<machine>}, so that they say what they are in
 * {@code kubectl get validatingwebhookconfigurations}, and the next run of the same application on
 * the same machine replaces what a killed run left. Immutable.
 */
record DevRegistrationName(String value, String machineLabel) {

    /** The label that marks a development registration; its value is the machine's name. */
    static final String LABEL = "kubeloop.dev/dev-registration";

    /** Where a Pod finds its service account token: present means this process runs in a cluster. */
    static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

    static DevRegistrationName of(String application, String machine) {
        String app = dnsLabel(application == null || application.isBlank() ? "operator" : application);
        String host = dnsLabel(machine);
        String name = ("kubeloop-dev-" + app + "-" + host);
        return new DevRegistrationName(name.length() > 253 ? name.substring(0, 253).replaceAll("[-.]+$", "") : name,
                host.length() > 63 ? host.substring(0, 63).replaceAll("[-.]+$", "") : host);
    }

    /** The name for this application on this machine. */
    static DevRegistrationName of(Environment environment) {
        return of(environment.getProperty("spring.application.name"), machine(environment));
    }

    /**
     * Fails start-up when the process runs in a Pod: the registration is for a developer's machine,
     * and in a cluster the chart registers the webhooks behind a Service.
     */
    static void refuseInCluster(Environment environment) {
        String reason = environment.getProperty("KUBERNETES_SERVICE_HOST") != null
                ? "KUBERNETES_SERVICE_HOST is set"
                : Files.exists(SERVICE_ACCOUNT_TOKEN) ? SERVICE_ACCOUNT_TOKEN + " exists" : null;
        if (reason != null) {
            String property = WebhookSettings.DEV_REGISTRATION.property();
            throw new KubeloopConfigurationException(property + "=true is for development on a workstation, and this "
                    + "process runs inside a cluster (" + reason + ").", "Remove " + property
                            + " (or set it to false): in a cluster the Helm chart registers the webhooks behind a "
                            + "Service, with a certificate from cert-manager.");
        }
    }

    private static String machine(Environment environment) {
        String fromEnvironment = environment.getProperty("HOSTNAME", environment.getProperty("COMPUTERNAME"));
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static String dnsLabel(String text) {
        String label = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        return label.isEmpty() ? "x" : label;
    }
}
