package dev.kubeloop.runtime.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Field selectors as the API server takes them for lists and watches: comma-separated
 * {@code field=value}, {@code field==value} or {@code field!=value} (apimachinery's
 * {@code fields.ParseSelector}; no set-based forms). Checked at start-up, so that a typo fails there
 * instead of as a 400 on every list. Stateless.
 */
public final class FieldSelectors {

    private static final Pattern TERM = Pattern.compile("\\s*([A-Za-z0-9_.\\-/]+)\\s*(==|!=|=)\\s*([^,=!]*)\\s*");

    /** One term: the field, its value, and whether it must differ. */
    public record Term(String field, String value, boolean negated) {
    }

    private FieldSelectors() {
    }

    /**
     * The terms of {@code selector}; empty for null or blank.
     *
     * @throws IllegalArgumentException naming the term that does not parse
     */
    public static List<Term> parse(String selector) {
        List<Term> terms = new ArrayList<>();
        if (selector == null || selector.isBlank()) {
            return terms;
        }
        for (String part : selector.split(",", -1)) {
            Matcher term = TERM.matcher(part);
            if (!term.matches()) {
                throw new IllegalArgumentException("invalid field selector '" + selector + "': '" + part.trim()
                        + "' is not field=value, field==value or field!=value");
            }
            terms.add(new Term(term.group(1), term.group(3).trim(), term.group(2).equals("!=")));
        }
        return terms;
    }
}
