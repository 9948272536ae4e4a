package dev.kubeloop.acceptance.webpage;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code sample.javaoperatorsdk/v1 WebPage}, namespaced, as in java-operator-sdk's webpage sample
 * (customresource/WebPage.java). Its CRD is generated at build time into
 * {@code META-INF/fabric8/webpages.sample.javaoperatorsdk-v1.yml}.
 */
@Group(WebPage.GROUP)
@Version(WebPage.VERSION)
@Plural(WebPage.PLURAL)
public class WebPage extends CustomResource<WebPageSpec, WebPageStatus> implements Namespaced {

    public static final String GROUP = "sample.javaoperatorsdk";
    public static final String VERSION = "v1";
    public static final String PLURAL = "webpages";
    /** The CRD the build generates, on the class path. */
    public static final String CRD = "META-INF/fabric8/" + PLURAL + "." + GROUP + "-v1.yml";
    private static final long serialVersionUID = 1L;

    @Override
    protected WebPageSpec initSpec() {
        return new WebPageSpec();
    }
}
