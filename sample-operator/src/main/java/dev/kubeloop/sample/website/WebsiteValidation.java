package dev.kubeloop.sample.website;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the CRD schema cannot reject but the objects a Website makes would be refused for: an image
 * reference that does not parse, and a name that cannot name the Service (a DNS-1035 label: lower
 * case letters, digits and '-', starting with a letter, at most 63 characters, which also keeps the
 * {@code app.kubernetes.io/instance} label value within its 63). Stateless.
 */
final class WebsiteValidation {

    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final int MAX_LABEL = 63;

    private WebsiteValidation() {
    }

    /** Why {@code site} cannot be served as specified, if it cannot. */
    static Optional<String> problem(Website site) {
        Optional<String> name = nameProblem(site.getMetadata().getName());
        if (name.isPresent()) {
            return name;
        }
        String image = site.getSpec().getImage();
        if (!ImageReference.isValid(image)) {
            return Optional.of("spec.image \"" + image + "\" is not a valid image reference");
        }
        return Optional.empty();
    }

    /** Why {@code name} cannot name a Website's objects, if it cannot (also the validating webhook's check). */
    /** What a name that fails {@link #nameProblem} is told, after the name. */
    static final String NAME_RULE = "cannot name the site's Service: it must be a DNS-1035 label (lower case letters, "
            + "digits and '-', starting with a letter and ending with a letter or digit, at most 63 characters)";

    static Optional<String> nameProblem(String name) {
        if (name != null && name.length() <= MAX_LABEL && DNS_1035_LABEL.matcher(name).matches()) {
            return Optional.empty();
        }
        return Optional.of("metadata.name \"" + name + "\" " + NAME_RULE);
    }
}
