package dev.kubeloop.benchmarks.watch;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The Secrets of the metadata-only heap measurement: {@code kubernetes.io/tls} Secrets with
 * {@code dataBytes} of data (3/4 in {@code tls.crt}, 1/4 in {@code tls.key}; random, so that no
 * two objects share content), one label, and what the API server adds (uid, resourceVersion,
 * creationTimestamp and the managedFields entry of the create). Stateless.
 */
final class TlsSecrets {

    private TlsSecrets() {
    }

    static String name(int i) {
        return String.format("tls-%06d", i);
    }

    /** The Secret to create on a real API server: no server-side fields. */
    static Secret toCreate(String namespace, int i, int dataBytes) {
        Random random = new Random(i);
        byte[] certificate = new byte[dataBytes * 3 / 4];
        byte[] key = new byte[dataBytes - certificate.length];
        random.nextBytes(certificate);
        random.nextBytes(key);
        Base64.Encoder base64 = Base64.getEncoder();
        return new SecretBuilder()
                .withNewMetadata().withName(name(i)).withNamespace(namespace)
                .addToLabels("app.kubernetes.io/name", "site-" + i).endMetadata()
                .withType("kubernetes.io/tls")
                .addToData("tls.crt", base64.encodeToString(certificate))
                .addToData("tls.key", base64.encodeToString(key))
                .build();
    }

    /** {@code count} Secrets as the API server would list them after {@link #toCreate}. */
    static List<Secret> listed(String namespace, int count, int dataBytes) {
        List<Secret> secrets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Secret secret = toCreate(namespace, i, dataBytes);
            secret.getMetadata().setUid(UUID.nameUUIDFromBytes(name(i).getBytes(StandardCharsets.UTF_8)).toString());
            secret.getMetadata().setResourceVersion(String.valueOf(i + 1));
            secret.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
            FieldsV1 fields = new FieldsV1();
            fields.setAdditionalProperty("f:data", Map.of("f:tls.crt", Map.of(), "f:tls.key", Map.of()));
            fields.setAdditionalProperty("f:metadata", Map.of("f:labels",
                    Map.of("f:app.kubernetes.io/name", Map.of())));
            fields.setAdditionalProperty("f:type", Map.of());
            secret.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("fabric8")
                    .withOperation("Update").withApiVersion("v1").withTime("2026-01-01T00:00:00Z")
                    .withFieldsType("FieldsV1").withFieldsV1(fields).build()));
            secrets.add(secret);
        }
        return secrets;
    }
}
