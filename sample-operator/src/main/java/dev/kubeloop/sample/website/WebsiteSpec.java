package dev.kubeloop.sample.website;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;

/**
 * What the user wants: how many nginx replicas serve which page with which image. v1 named the
 * page {@code spec.page}; v1alpha1 called it {@code spec.html} (see {@code v1alpha1.WebsiteSpec}).
 */
public class WebsiteSpec {

    public static final String DEFAULT_IMAGE = "nginx:1.27-alpine";

    @JsonPropertyDescription("Number of nginx replicas serving the page; 0 keeps the objects but runs no pod.")
    @Default("1")
    @Min(0)
    @Max(100)
    private Integer replicas = 1;

    @JsonPropertyDescription("Container image serving the page (an nginx-compatible image).")
    @Default(DEFAULT_IMAGE)
    @Size(min = 1, max = 512)
    private String image = DEFAULT_IMAGE;

    @JsonPropertyDescription("The page content, served as index.html; left empty, the operator's defaulter "
            + "puts a page naming the site.")
    @Size(max = 262144)
    private String page = "";

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

    public String getPage() {
        return page;
    }

    public void setPage(String page) {
        this.page = page;
    }

    public WebsiteTls getTls() {
        return tls;
    }

    public void setTls(WebsiteTls tls) {
        this.tls = tls;
    }
}
