package dev.kubeloop.acceptance.webpage;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The original's status. No {@code observedGeneration}: the tests wait on these fields instead of
 * {@code kit.awaitReconciled} (docs/acceptance.md). Nulls are left out, so a status applied without
 * an error message removes the one a failed reconcile wrote (server-side apply drops the fields its
 * manager stops sending).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WebPageStatus {

    private String htmlConfigMap;
    private Boolean areWeGood;
    private String errorMessage;

    public String getHtmlConfigMap() {
        return htmlConfigMap;
    }

    public void setHtmlConfigMap(String htmlConfigMap) {
        this.htmlConfigMap = htmlConfigMap;
    }

    public Boolean getAreWeGood() {
        return areWeGood;
    }

    public void setAreWeGood(Boolean areWeGood) {
        this.areWeGood = areWeGood;
    }

    public String getErrorMessage() {
        return errorMessage;
    }

    public void setErrorMessage(String errorMessage) {
        this.errorMessage = errorMessage;
    }
}
