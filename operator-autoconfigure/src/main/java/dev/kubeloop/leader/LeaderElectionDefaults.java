package dev.kubeloop.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Where a replica's defaults come from when they are not configured: its identity (pod name plus a
 * random suffix) and the Lease's namespace (the pod's own). Stateless.
 */
public final class LeaderElectionDefaults {

    /** Where Kubernetes mounts the pod's namespace with its service account token. */
    public static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    private LeaderElectionDefaults() {
    }

    /**
     * The pod name ({@code HOSTNAME}, which Kubernetes sets to it) or else the host name, plus
     * {@code _} and a random suffix, as controller-runtime does: a restarted process never reuses
     * its predecessor's identity, so it cannot mistake the old Lease record for its own.
     */
    public static String identity() {
        return identity(System.getenv(), LeaderElectionDefaults::localHostName);
    }

    static String identity(Map<String, String> env, Supplier<String> hostName) {
        String host = env.get("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = hostName.get();
        }
        if (host == null || host.isBlank()) {
            host = "kubeloop";
        }
        return host.trim() + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * The pod's namespace: the service account mount, then {@code POD_NAMESPACE} (the downward
     * API), then the client's namespace (kubeconfig context), else {@code default}.
     */
    public static String namespace(KubernetesClient client) {
        return namespace(SERVICE_ACCOUNT_NAMESPACE, System.getenv(), client == null ? null : client.getNamespace());
    }

    static String namespace(Path serviceAccountFile, Map<String, String> env, String clientNamespace) {
        try {
            if (Files.isReadable(serviceAccountFile)) {
                String mounted = Files.readString(serviceAccountFile, StandardCharsets.UTF_8).trim();
                if (!mounted.isEmpty()) {
                    return mounted;
                }
            }
        } catch (IOException e) {
            // not in a pod, or no service account: fall through
        }
        String fromEnv = env.get("POD_NAMESPACE");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.trim();
        }
        if (clientNamespace != null && !clientNamespace.isBlank()) {
            return clientNamespace;
        }
        return "default";
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return null;
        }
    }
}
