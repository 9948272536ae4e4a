package dev.kubeloop.benchmarks.compare.contender;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Builds the one fabric8 client configuration every contender uses, so that HTTP client, pool
 * sizes and timeouts are identical: fabric8's defaults, pointed at the mock server's URL, or the
 * kubeconfig when no URL is given.
 */
public final class ClientFactory {

    private ClientFactory() {
    }

    public static KubernetesClient create(String masterUrl, String namespace) {
        return new KubernetesClientBuilder().withConfig(config(masterUrl, namespace)).build();
    }

    public static Config config(String masterUrl, String namespace) {
        if (masterUrl == null) {
            Config config = Config.autoConfigure(null);
            config.setNamespace(namespace);
            return config;
        }
        // Config.empty() so that a kubeconfig on the machine cannot leak settings into a mock run
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(masterUrl)
                .withNamespace(namespace)
                .withTrustCerts(true)
                .build();
    }
}
