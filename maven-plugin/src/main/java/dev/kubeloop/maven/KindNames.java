package dev.kubeloop.maven;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names a new kind is given, checked before anything is written, each with a message naming
 * its property. The patterns are the archetype's ({@code archetype-metadata.xml}'s validationRegex;
 * {@code KindNamesTest} holds them equal), so that a kind added later obeys the rules the first one did.
 */
final class KindNames {

    /** A Java class name in UpperCamel; its lower case names the reconciler and must be a DNS label. */
    static final Pattern KIND = Pattern.compile("^[A-Z][A-Za-z0-9]*$");
    static final Pattern GROUP = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$");
    static final Pattern PLURAL = Pattern.compile("^[a-z]([-a-z0-9]*[a-z0-9])?$");
    static final Pattern VERSION = Pattern.compile("^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$");

    /** A DNS label's length: the kind in lower case names the reconciler, the plural a resource. */
    private static final int LABEL = 63;
    /** A DNS subdomain's: the CRD's name is plural.group. */
    private static final int SUBDOMAIN = 253;

    private KindNames() {
    }

    static String kind(String kind) throws ScaffoldException {
        if (kind == null || kind.isBlank()) {
            throw new ScaffoldException("-Dkind is required: the custom resource's kind, an UpperCamel class name "
                    + "such as Backup");
        }
        if (!KIND.matcher(kind).matches() || kind.length() > LABEL) {
            throw new ScaffoldException("-Dkind=" + kind + " is not a kind: an UpperCamel Java class name of ASCII "
                    + "letters and digits (Backup, DatabaseClaim), at most " + LABEL
                    + " characters, because its lower case names the reconciler, a DNS label");
        }
        return kind;
    }

    static String group(String group) throws ScaffoldException {
        if (!GROUP.matcher(group).matches() || group.length() > SUBDOMAIN) {
            throw new ScaffoldException("-DcrdGroup=" + group + " is not an API group: a DNS subdomain with at least "
                    + "one dot, in lower case (demo.example.com)");
        }
        return group;
    }

    static String plural(String plural) throws ScaffoldException {
        if (!PLURAL.matcher(plural).matches() || plural.length() > LABEL) {
            throw new ScaffoldException("-Dplural=" + plural + " is not a resource name: a DNS label in lower case "
                    + "(backups), at most " + LABEL + " characters");
        }
        return plural;
    }

    static String version(String version) throws ScaffoldException {
        if (!VERSION.matcher(version).matches()) {
            throw new ScaffoldException("-DcrdVersion=" + version + " is not an API version: v1, v2beta1, v1alpha1...");
        }
        return version;
    }

    /** The archetype's default: the kind in lower case with an s. */
    static String defaultPlural(String kind) {
        return kind.toLowerCase(Locale.ROOT) + "s";
    }
}
