package dev.kubeloop.sample.website;

import java.util.regex.Pattern;

/**
 * Checks a container image reference against the grammar of the distribution reference format
 * ({@code [host[:port]/]path[:tag][@digest]}), which the CRD schema cannot express.
 */
final class ImageReference {

    private static final String COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
    private static final String HOST = "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)"
            + "(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?";
    private static final Pattern REFERENCE = Pattern.compile("^(?:" + HOST + "/)?" + COMPONENT + "(?:/" + COMPONENT
            + ")*(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$");

    private ImageReference() {
    }

    static boolean isValid(String reference) {
        return reference != null && reference.length() <= 512 && REFERENCE.matcher(reference).matches();
    }
}
