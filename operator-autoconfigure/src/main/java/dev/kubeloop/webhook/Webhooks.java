package dev.kubeloop.webhook;

import dev.kubeloop.api.webhook.Defaulter;
import dev.kubeloop.api.webhook.SpokeConverter;
import dev.kubeloop.api.webhook.Validator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The webhooks of an operator by path: its validators, defaulters and converters, each at the path
 * derived from its type ({@link WebhookType}). {@link #handle} answers a request body the way the
 * server does, without TLS or sockets: what the test kit calls. Immutable once built; thread-safe.
 */
public final class Webhooks {

    private final Map<String, Webhook> byPath;

    private Webhooks(Map<String, Webhook> byPath) {
        this.byPath = Map.copyOf(byPath);
    }

    /** Webhooks reading and writing objects with {@code serialization} (the client's, in an operator). */
    public static Builder builder(KubernetesSerialization serialization) {
        return new Builder(serialization);
    }

    /** Every webhook, in path order. */
    public List<Webhook> all() {
        return byPath.values().stream().sorted(java.util.Comparator.comparing(Webhook::path)).toList();
    }

    public boolean isEmpty() {
        return byPath.isEmpty();
    }

    public Optional<Webhook> at(String path) {
        return Optional.ofNullable(byPath.get(path));
    }

    /** The webhook of {@code type} for {@code resource}, e.g. the validator of {@code Website}. */
    public Optional<Webhook> of(WebhookType type, Class<? extends HasMetadata> resource) {
        return at(type.path(ResourceType.of(resource)));
    }

    /** The answer to {@code body} sent to {@code path}: a 404 for a path no webhook serves. */
    public WebhookAnswer handle(String path, byte[] body) {
        Webhook webhook = byPath.get(path);
        return webhook == null ? notFound(path) : webhook.handle(body);
    }

    WebhookAnswer notFound(String path) {
        return WebhookAnswer.text(404, "No webhook at " + path + "; this server serves " + String.join(", ",
                all().stream().map(Webhook::path).toList()));
    }

    /**
     * Collects webhooks and checks them as a whole: one validator and one defaulter per type, and
     * per kind one hub with spokes of other versions. Not thread-safe; build once.
     */
    public static final class Builder {

        private final Json json;
        private final Map<String, Webhook> byPath = new LinkedHashMap<>();
        private final Map<String, Conversion> conversions = new LinkedHashMap<>();

        private Builder(KubernetesSerialization serialization) {
            this.json = new Json(Objects.requireNonNull(serialization, "serialization"));
        }

        /** Serves {@code validator} for {@code type}. */
        public <T extends HasMetadata> Builder validator(Class<T> type, Validator<T> validator) {
            return add(new ValidatingWebhook<>(type, validator, json), "validators");
        }

        /** Serves {@code defaulter} for {@code type}. */
        public <T extends HasMetadata> Builder defaulter(Class<T> type, Defaulter<T> defaulter) {
            return add(new MutatingWebhook<>(type, defaulter, json), "defaulters");
        }

        /** Serves conversions between {@code hub} and {@code spoke} with {@code converter}. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        public <H extends HasMetadata, S extends HasMetadata> Builder converter(Class<H> hub, Class<S> spoke,
                SpokeConverter<H, S> converter) {
            Objects.requireNonNull(converter, "converter");
            ResourceType hubType = ResourceType.of(hub);
            ResourceType spokeType = ResourceType.of(spoke);
            if (!hubType.sameKind(spokeType.group(), spokeType.kind())) {
                throw new IllegalArgumentException("Converter " + converter.getClass().getName() + " converts "
                        + spokeType + " to " + hubType + ": a hub and its spokes are one group and kind");
            }
            if (hubType.version().equals(spokeType.version())) {
                throw new IllegalArgumentException("Converter " + converter.getClass().getName() + " converts "
                        + hubType + " to itself: a spoke is another version than the hub");
            }
            String kind = hubType.group() + "/" + hubType.kind();
            Conversion conversion = conversions.computeIfAbsent(kind, k -> new Conversion(hubType));
            if (!conversion.hub.equals(hubType)) {
                throw new IllegalArgumentException("Two hubs for " + hubType.group() + " " + hubType.kind() + ": "
                        + conversion.hub + " (" + conversion.hub.javaType().getName() + ") and " + hubType + " ("
                        + hub.getName() + "); every converter of a kind converts to one hub");
            }
            if (conversion.spokes.containsKey(spokeType.version())) {
                throw new IllegalArgumentException("Two converters for " + spokeType + ": "
                        + conversion.converters.get(spokeType.version()) + " and " + converter.getClass().getName());
            }
            conversion.spokes.put(spokeType.version(),
                    new ConversionWebhook.Spoke<>(spokeType, (SpokeConverter) converter));
            conversion.converters.put(spokeType.version(), converter.getClass().getName());
            return this;
        }

        private Builder add(Webhook webhook, String what) {
            Webhook existing = byPath.putIfAbsent(webhook.path(), webhook);
            if (existing != null) {
                throw new IllegalArgumentException("Two " + what + " for " + webhook.resource()
                        + ": one webhook per type and kind of webhook (" + webhook.path() + ")");
            }
            return this;
        }

        /** @throws IllegalArgumentException if two webhooks would share a path */
        public Webhooks build() {
            Map<String, Webhook> all = new LinkedHashMap<>(byPath);
            for (Conversion conversion : conversions.values()) {
                ConversionWebhook webhook = new ConversionWebhook(conversion.hub, conversion.spokes, json);
                all.put(webhook.path(), webhook);
            }
            return new Webhooks(all);
        }

        /** Everything known about the conversion of one kind while building. */
        private static final class Conversion {
            final ResourceType hub;
            final Map<String, ConversionWebhook.Spoke<?>> spokes = new LinkedHashMap<>();
            final Map<String, String> converters = new LinkedHashMap<>();

            Conversion(ResourceType hub) {
                this.hub = hub;
            }
        }
    }

    /** The paths, for logs. */
    static List<String> paths(Collection<Webhook> webhooks) {
        List<String> paths = new ArrayList<>();
        webhooks.forEach(webhook -> paths.add(webhook.path()));
        return paths;
    }
}
