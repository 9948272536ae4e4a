package dev.kubeloop.acceptance.webpage;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The original's spec: the page, and whether an Ingress exposes it. */
public class WebPageSpec {

    @JsonPropertyDescription("The page served as index.html")
    private String html;

    @JsonPropertyDescription("Whether an Ingress exposes the page")
    private Boolean exposed = false;

    public String getHtml() {
        return html;
    }

    public void setHtml(String html) {
        this.html = html;
    }

    public Boolean getExposed() {
        return exposed;
    }

    public void setExposed(Boolean exposed) {
        this.exposed = exposed;
    }
}
