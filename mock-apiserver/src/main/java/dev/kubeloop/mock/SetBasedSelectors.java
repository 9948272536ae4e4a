package dev.kubeloop.mock;

import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.http.Dispatcher;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Teaches a fabric8 mock API server's CRUD dispatcher the set-based label requirements
 * ({@code key in (a,b)}, {@code key notin (a,b)}) that kubernetes-server-mock 7.8.0 ignores (it
 * splits the selector at every comma, logs "Ignoring unsupported label requirement", and matches
 * everything): lists, gets and watches then select as a real API server does, including the
 * DELETED and ADDED events a watch gets when an object's labels move it out of or into the
 * selection. Sharded caches select their buckets this way.
 *
 * <p>The mock matches set-based attributes already ({@code AttributeType.IN}); only its parser of
 * request paths lacks them. The parser is a private field of the dispatcher, so it is replaced by
 * reflection, on the 7.8.0 internals. Call {@link #install} once, before the server serves.
 */
public final class SetBasedSelectors {

    private static final String LABEL_SELECTOR = "labelSelector=";
    private static final String LABEL_KEY_PREFIX = "labels:";

    private SetBasedSelectors() {
    }

    /**
     * Installs the parser in {@code dispatcher}: a {@link KubernetesCrudDispatcher} or a
     * {@link KubernetesMixedDispatcher}.
     *
     * @throws IllegalStateException if the mock's internals are not those of 7.8.0
     */
    public static void install(Dispatcher dispatcher) {
        try {
            KubernetesCrudDispatcher crud;
            if (dispatcher instanceof KubernetesMixedDispatcher mixed) {
                crud = (KubernetesCrudDispatcher) field(KubernetesMixedDispatcher.class, "kubernetesCrudDispatcher")
                        .get(mixed);
            } else if (dispatcher instanceof KubernetesCrudDispatcher direct) {
                crud = direct;
            } else {
                throw new IllegalArgumentException("not a CRUD dispatcher: " + dispatcher);
            }
            Parser parser = new Parser();
            parser.setCustomResourceDefinitionProcessor((CustomResourceDefinitionProcessor)
                    field(KubernetesCrudDispatcher.class, "crdProcessor").get(crud));
            field(KubernetesCrudDispatcher.class, "kubernetesAttributesExtractor").set(crud, parser);
            field(io.fabric8.mockwebserver.crud.CrudDispatcher.class, "attributeExtractor").set(crud, parser);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kubernetes-server-mock's internals changed; cannot teach it set-based "
                    + "label selectors", e);
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    /** The mock's path parser, with the set-based requirements taken out first and added as IN/NOT_IN. */
    private static final class Parser extends KubernetesAttributesExtractor {

        @Override
        public AttributeSet fromPath(String path) {
            int start = path == null ? -1 : path.indexOf(LABEL_SELECTOR);
            if (start < 0 || (start > 0 && path.charAt(start - 1) != '?' && path.charAt(start - 1) != '&')) {
                return super.fromPath(path);
            }
            int valueStart = start + LABEL_SELECTOR.length();
            int end = path.indexOf('&', valueStart);
            String selector = URLDecoder.decode(path.substring(valueStart, end < 0 ? path.length() : end),
                    StandardCharsets.UTF_8);
            List<String> kept = new ArrayList<>();
            List<Attribute> sets = new ArrayList<>();
            for (String requirement : requirements(selector)) {
                Attribute set = setBased(requirement);
                if (set == null) {
                    kept.add(requirement);
                } else {
                    sets.add(set);
                }
            }
            if (sets.isEmpty()) {
                return super.fromPath(path);
            }
            String rest = end < 0 ? "" : path.substring(end);
            String rewritten = kept.isEmpty()
                    ? path.substring(0, start) + (rest.isEmpty() ? "" : rest.substring(1))
                    : path.substring(0, valueStart)
                            + URLEncoder.encode(String.join(",", kept), StandardCharsets.UTF_8).replace("+", "%20")
                            + rest;
            if (rewritten.endsWith("?") || rewritten.endsWith("&")) {
                rewritten = rewritten.substring(0, rewritten.length() - 1);
            }
            AttributeSet attributes = super.fromPath(rewritten);
            for (Attribute set : sets) {
                attributes = attributes.add(set);
            }
            return attributes;
        }

        /** The selector's requirements: split at the commas that are not inside parentheses. */
        private static List<String> requirements(String selector) {
            List<String> parts = new ArrayList<>();
            int depth = 0;
            int from = 0;
            for (int i = 0; i < selector.length(); i++) {
                char c = selector.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == ',' && depth == 0) {
                    parts.add(selector.substring(from, i).trim());
                    from = i + 1;
                }
            }
            parts.add(selector.substring(from).trim());
            parts.removeIf(String::isEmpty);
            return parts;
        }

        /** {@code key in (a,b)} or {@code key notin (a,b)} as an attribute; null for any other requirement. */
        private static Attribute setBased(String requirement) {
            int open = requirement.indexOf('(');
            if (open < 0 || !requirement.endsWith(")")) {
                return null;
            }
            String[] head = requirement.substring(0, open).trim().split("\\s+");
            if (head.length != 2 || !(head[1].equals("in") || head[1].equals("notin"))) {
                return null;
            }
            List<String> values = new ArrayList<>();
            for (String value : requirement.substring(open + 1, requirement.length() - 1).split(",")) {
                if (!value.isBlank()) {
                    values.add(value.trim());
                }
            }
            return new Attribute(LABEL_KEY_PREFIX + head[0], values,
                    head[1].equals("in") ? AttributeType.IN : AttributeType.NOT_IN);
        }
    }
}
