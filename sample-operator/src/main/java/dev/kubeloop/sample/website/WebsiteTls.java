package dev.kubeloop.sample.website;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;

/** TLS for the site: present means enabled. */
public class WebsiteTls {

    @JsonPropertyDescription("Name of a Secret of type kubernetes.io/tls (tls.crt, tls.key) in the Website's "
            + "namespace that serves the page over HTTPS; the Website is not owned by it and follows its changes.")
    @Size(max = 253)
    private String secretName;

    public String getSecretName() {
        return secretName;
    }

    public void setSecretName(String secretName) {
        this.secretName = secretName;
    }
}
