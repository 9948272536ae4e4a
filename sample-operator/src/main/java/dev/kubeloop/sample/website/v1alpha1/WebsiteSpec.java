package dev.kubeloop.sample.website.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.kubeloop.sample.website.WebsiteTls;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;

/** v1alpha1's spec: as v1's, with the page in {@code html}. */
public class WebsiteSpec {

    @JsonPropertyDescription("Number of nginx replicas serving the page; 0 keeps the objects but runs no pod.")
    @Default("1")
    @Min(0)
    @Max(100)
    private Integer replicas = 1;

    @JsonPropertyDescription("Container image serving the page (an nginx-compatible image).")
    @Default(dev.kubeloop.sample.website.WebsiteSpec.DEFAULT_IMAGE)
    @Size(min = 1, max = 512)
    private String image = dev.kubeloop.sample.website.WebsiteSpec.DEFAULT_IMAGE;

    @JsonPropertyDescription("The page content, served as index.html (spec.page in v1).")
    @Size(max = 262144)
    private String html = "";

    @JsonPropertyDescription("Serve the page over HTTPS with the certificate of a Secret; absent: HTTP only.")
    private WebsiteTls tls;

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public String getImage() {
        return image;
    }

    public void setImage(String image) {
        this.image = image;
    }

    public String getHtml() {
        return html;
    }

    public void setHtml(String html) {
        this.html = html;
    }

    public WebsiteTls getTls() {
        return tls;
    }

    public void setTls(WebsiteTls tls) {
        this.tls = tls;
    }
}
