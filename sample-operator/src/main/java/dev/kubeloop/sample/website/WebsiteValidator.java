package dev.kubeloop.sample.website;

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.FieldError;
import dev.kubeloop.api.webhook.Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * What a Website's schema cannot say, refused before it is stored (Kubeloop serves it at
 * {@code /validate-sample-kubeloop-dev-v1-website}; v1alpha1 objects arrive converted to v1):
 * <ul>
 *   <li>the name must be able to name the site's Service (a DNS-1035 label), checked at create and
 *       refused with a field error ({@code metadata.name: Invalid value: ...});
 *   <li>{@code spec.tls} present needs {@code spec.tls.secretName}, a valid Secret name;
 *   <li>more than one replica needs an image pinned to a version (a tag other than {@code latest},
 *       or a digest): replicas pulling a moving tag can serve different pages;
 *   <li>{@code spec.image} must parse as an image reference (the reconciler reports
 *       {@code InvalidSpec} for such objects where no webhook runs).
 * </ul>
 * Warns (kubectl prints it) about a page above {@value #LARGE_PAGE_BYTES} bytes, and when an update
 * removes TLS from a site. Stateless.
 */
@Component
public class WebsiteValidator implements Validator<Website> {

    static final int LARGE_PAGE_BYTES = 100 * 1024;

    private static final Pattern SECRET_NAME = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    @Override
    public Admission validateCreate(Website site, AdmissionContext context) {
        // names are immutable: checked once, at create (generateName gives the name only then, so there may be none)
        String name = site.getMetadata().getName();
        if (name != null && WebsiteValidation.nameProblem(name).isPresent()) {
            // a field error: 422 Invalid, as the API server refuses an invalid object, kubectl naming the field
            return Admission.invalid(FieldError.invalid("metadata.name", name, WebsiteValidation.NAME_RULE));
        }
        return check(site);
    }

    @Override
    public Admission validateUpdate(Website oldSite, Website site, AdmissionContext context) {
        Admission admission = check(site);
        if (admission.isAllowed() && oldSite.getSpec().getTls() != null && site.getSpec().getTls() == null) {
            admission = admission.withWarning("spec.tls was removed: the site is served over HTTP only from now on");
        }
        return admission;
    }

    private static Admission check(Website site) {
        WebsiteSpec spec = site.getSpec();
        List<String> violations = new ArrayList<>();
        if (spec.getTls() != null) {
            String secretName = spec.getTls().getSecretName();
            if (secretName == null || secretName.isBlank()) {
                violations.add("spec.tls.secretName is required when spec.tls is set");
            } else if (secretName.length() > 253 || !SECRET_NAME.matcher(secretName).matches()) {
                violations.add("spec.tls.secretName \"" + secretName + "\" is not a valid Secret name");
            }
        }
        if (!ImageReference.isValid(spec.getImage())) {
            violations.add("spec.image \"" + spec.getImage() + "\" is not a valid image reference");
        } else if (spec.getReplicas() != null && spec.getReplicas() > 1 && !pinned(spec.getImage())) {
            violations.add("spec.replicas " + spec.getReplicas() + " needs spec.image pinned to a version (a tag "
                    + "other than latest, or a digest); \"" + spec.getImage() + "\" is not: use 1 replica or pin it");
        }
        if (!violations.isEmpty()) {
            return Admission.denied(String.join("; ", violations));
        }
        int pageBytes = spec.getPage() == null ? 0 : spec.getPage().getBytes(StandardCharsets.UTF_8).length;
        return pageBytes > LARGE_PAGE_BYTES
                ? Admission.allowed().withWarning("spec.page is " + pageBytes + " bytes; every replica mounts it from "
                        + "a ConfigMap (at most 1 MiB)")
                : Admission.allowed();
    }

    /** A digest, or a tag that is not {@code latest} (a registry's {@code :port} is not a tag). */
    static boolean pinned(String image) {
        if (image.contains("@")) {
            return true;
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        return colon > slash && !"latest".equals(image.substring(colon + 1));
    }
}
