package dev.kubeloop.runtime.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Validates label selectors in the API server's string syntax ({@code app=web,tier!=cache},
 * {@code env in (prod,staging)}, {@code !canary}, {@code replicas>2}) with the grammar and name
 * rules of apimachinery's {@code labels.Parse}, so that a typo fails at startup with the position
 * of the problem instead of as a 400 on every list request. Stateless and thread-safe.
 */
final class LabelSelectors {

    private static final int MAX_NAME_LENGTH = 63;
    private static final int MAX_PREFIX_LENGTH = 253;
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
    private static final String SPECIAL = "!=(),<>";

    private LabelSelectors() {
    }

    /**
     * Checks {@code selector} and returns it trimmed; null and blank mean "everything" and return "".
     *
     * @throws IllegalArgumentException naming the problem and its position
     */
    static String validate(String selector) {
        if (selector == null || selector.isBlank()) {
            return "";
        }
        String trimmed = selector.trim();
        new Parser(tokenize(trimmed), trimmed).selector();
        return trimmed;
    }

    private record Token(String text, int position, boolean identifier) {
        boolean is(String symbol) {
            return !identifier && text.equals(symbol);
        }
    }

    private static List<Token> tokenize(String input) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (SPECIAL.indexOf(c) >= 0) {
                boolean twoChar = i + 1 < input.length() && input.charAt(i + 1) == '=' && (c == '=' || c == '!');
                tokens.add(new Token(input.substring(i, twoChar ? i + 2 : i + 1), i, false));
                i += twoChar ? 2 : 1;
            } else {
                int start = i;
                while (i < input.length() && !Character.isWhitespace(input.charAt(i))
                        && SPECIAL.indexOf(input.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(new Token(input.substring(start, i), start, true));
            }
        }
        return tokens;
    }

    /** Recursive descent over the token list; every method consumes one grammar production. */
    private static final class Parser {
        private final List<Token> tokens;
        private final String input;
        private int next;

        Parser(List<Token> tokens, String input) {
            this.tokens = tokens;
            this.input = input;
        }

        void selector() {
            requirement();
            while (next < tokens.size()) {
                expect(",");
                requirement();
            }
        }

        private void requirement() {
            boolean negated = peekIs("!");
            if (negated) {
                next++;
            }
            Token key = identifier("a label key");
            validateKey(key);
            if (negated || next == tokens.size() || peekIs(",")) {
                return; // existence (key) or non-existence (!key)
            }
            Token operator = tokens.get(next++);
            if (operator.identifier() && (operator.text().equals("in") || operator.text().equals("notin"))) {
                valueSet();
            } else if (operator.is("=") || operator.is("==") || operator.is("!=")) {
                exactValue();
            } else if (operator.is(">") || operator.is("<")) {
                Token value = identifier("an integer");
                if (!INTEGER.matcher(value.text()).matches()) {
                    throw problem(value.position(), "'" + value.text() + "' is not an integer");
                }
            } else {
                throw problem(operator.position(),
                        "expected an operator (=, ==, !=, in, notin, <, >) but found '" + operator.text() + "'");
            }
        }

        private void exactValue() {
            // "key=" selects the empty value, as in kubectl
            if (next < tokens.size() && tokens.get(next).identifier()) {
                validateValue(tokens.get(next++));
            }
        }

        private void valueSet() {
            expect("(");
            while (true) {
                if (next < tokens.size() && tokens.get(next).identifier()) {
                    validateValue(tokens.get(next++));
                }
                if (peekIs(")")) {
                    next++;
                    return;
                }
                expect(",");
            }
        }

        private Token identifier(String what) {
            if (next == tokens.size()) {
                throw problem(input.length(), "expected " + what + " but the selector ended");
            }
            Token token = tokens.get(next);
            if (!token.identifier()) {
                throw problem(token.position(), "expected " + what + " but found '" + token.text() + "'");
            }
            next++;
            return token;
        }

        private void expect(String symbol) {
            if (next == tokens.size()) {
                throw problem(input.length(), "expected '" + symbol + "' but the selector ended");
            }
            Token token = tokens.get(next);
            if (!token.is(symbol)) {
                throw problem(token.position(), "expected '" + symbol + "' but found '" + token.text() + "'");
            }
            next++;
        }

        private boolean peekIs(String symbol) {
            return next < tokens.size() && tokens.get(next).is(symbol);
        }

        private void validateKey(Token key) {
            String text = key.text();
            int slash = text.indexOf('/');
            String name = slash < 0 ? text : text.substring(slash + 1);
            if (slash >= 0) {
                String prefix = text.substring(0, slash);
                if (prefix.isEmpty() || prefix.length() > MAX_PREFIX_LENGTH
                        || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                    throw problem(key.position(), "label key prefix '" + prefix + "' is not a DNS subdomain");
                }
            }
            if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
                throw problem(key.position(), "'" + text + "' is not a valid label key (name part: at most 63 "
                        + "alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric)");
            }
        }

        private void validateValue(Token value) {
            String text = value.text();
            if (text.length() > MAX_NAME_LENGTH || !NAME.matcher(text).matches()) {
                throw problem(value.position(), "'" + text + "' is not a valid label value (at most 63 "
                        + "alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric)");
            }
        }

        private IllegalArgumentException problem(int position, String message) {
            return new IllegalArgumentException(
                    "invalid label selector '" + input + "' at position " + position + ": " + message);
        }
    }
}
