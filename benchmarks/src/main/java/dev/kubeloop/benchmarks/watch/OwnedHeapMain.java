package dev.kubeloop.benchmarks.watch;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Heap of an operator's owned ConfigMap cache in a namespace that holds many unrelated ConfigMaps
 * (issue 27, item 4): the owned kind cached whole (what {@code @Reconciler(owns)} does) against
 * limited to the objects the reconciler applied ({@code watches.ownsApplied(ConfigMap.class)}: the
 * selector {@code kubeloop.dev/applied-by=<reconciler>}). Each round runs three fresh child JVMs
 * ({@link OwnedHeapChild}, {@code -Xms1g -Xmx1g -XX:+UseG1GC}): whole, applied-only, and an empty
 * namespace (the fixed cost); the order of the first two alternates between rounds. A benchmark,
 * not a test: nothing is asserted.
 *
 * <p>The ConfigMaps come from an in-process list server ({@link ListServer}) that answers the
 * selector's list with the owned ConfigMaps only, as the API server filters a list by label.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.watch.OwnedHeapMain
 * [--unrelated=10000] [--owned=10] [--data-bytes=1024] [--rounds=3] [--out=target/owned-heap]}.
 */
public final class OwnedHeapMain {

    private static final String NAMESPACE = "heap-configmaps";
    private static final String EMPTY_NAMESPACE = "heap-empty";
    private static final String APPLIED_ONLY = "kubeloop.dev/applied-by=bench";

    private OwnedHeapMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("unrelated", "10000", "owned", "10",
                "data-bytes", "1024", "rounds", "3", "out", "target/owned-heap"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --flag=value, got " + arg);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        int unrelated = Integer.parseInt(options.get("unrelated"));
        int owned = Integer.parseInt(options.get("owned"));
        int dataBytes = Integer.parseInt(options.get("data-bytes"));
        int rounds = Integer.parseInt(options.get("rounds"));
        Path logs = Path.of(options.get("out"), "logs");

        KubernetesSerialization serialization = new KubernetesSerialization();
        List<ConfigMap> ownedMaps = new ArrayList<>();
        List<ConfigMap> all = new ArrayList<>();
        Random random = new Random(27);
        for (int i = 0; i < owned; i++) {
            ConfigMap map = configMap("owned-" + i, i + 1, dataBytes, random, true);
            ownedMaps.add(map);
            all.add(map);
        }
        for (int i = 0; i < unrelated; i++) {
            all.add(configMap("unrelated-" + i, owned + i + 1, dataBytes, random, false));
        }
        String path = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
        PreparedList whole = PreparedList.of(ConfigMap.class, all, serialization);
        System.err.printf("%,d ConfigMaps (%,d owned), %,d bytes of JSON each%n", all.size(), owned,
                whole.averageJsonBytes());
        List<String[]> rows = new ArrayList<>();
        List<long[]> figures = new ArrayList<>();
        try (ListServer server = ListServer.start(Map.of(path, whole,
                path + "?labelSelector=" + APPLIED_ONLY, PreparedList.of(ConfigMap.class, ownedMaps, serialization),
                "/api/v1/namespaces/" + EMPTY_NAMESPACE + "/configmaps", PreparedList.of(ConfigMap.class, List.of(),
                        serialization)))) {
            for (int round = 1; round <= rounds; round++) {
                String loadBefore = Load.oneMinute();
                Map<Boolean, HeapRun> runs = new LinkedHashMap<>();
                for (boolean appliedOnly : round % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                    System.err.printf("round %d: %s, load %s%n", round, appliedOnly ? "applied-only" : "whole",
                            Load.oneMinute());
                    runs.put(appliedOnly, HeapRun.run(OwnedHeapChild.class, List.of("--namespace=" + NAMESPACE,
                            "--label-selector=" + (appliedOnly ? APPLIED_ONLY : ""),
                            "--expect=" + (appliedOnly ? owned : owned + unrelated), "--master=" + server.url()),
                            logs.resolve("r" + round + (appliedOnly ? "-applied-only" : "-whole") + ".log")));
                }
                HeapRun empty = HeapRun.run(OwnedHeapChild.class, List.of("--namespace=" + EMPTY_NAMESPACE,
                        "--label-selector=", "--expect=0", "--master=" + server.url()),
                        logs.resolve("r" + round + "-empty.log"));
                long[] f = {runs.get(false).figure("heapUsed"), runs.get(true).figure("heapUsed"),
                        empty.figure("heapUsed"), runs.get(false).figure("syncMs"), runs.get(true).figure("syncMs")};
                figures.add(f);
                rows.add(new String[] {String.valueOf(round), loadBefore + " / " + Load.oneMinute()});
            }
            if (!server.unexpected().isEmpty()) {
                System.err.println("unexpected requests: " + server.unexpected());
            }
        }
        double mib = 1024 * 1024;
        System.out.printf("Owned ConfigMap cache: %,d unrelated + %,d owned ConfigMaps (%,d bytes of data each) in one "
                + "namespace, child JVMs -Xms1g -Xmx1g -XX:+UseG1GC, in-process list server%n%n", unrelated, owned,
                dataBytes);
        System.out.println("| round | load before / after | whole: heap MiB | applied-only: heap MiB | empty namespace: "
                + "heap MiB | whole − applied-only MiB | B per unrelated ConfigMap | whole sync ms | applied-only sync ms |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (int i = 0; i < rows.size(); i++) {
            long[] f = figures.get(i);
            System.out.printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %,d | %,d | %,d |%n", rows.get(i)[0],
                    rows.get(i)[1], f[0] / mib, f[1] / mib, f[2] / mib, (f[0] - f[1]) / mib,
                    (f[0] - f[1]) / unrelated, f[3], f[4]);
        }
    }

    /** A ConfigMap as the API server lists it; an owned one has the applied-by label and a controller reference. */
    private static ConfigMap configMap(String name, int resourceVersion, int dataBytes, Random random, boolean owned) {
        byte[] data = new byte[dataBytes * 3 / 4];
        random.nextBytes(data);
        ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withNamespace(NAMESPACE).withName(name)
                .withUid(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString())
                .withResourceVersion(String.valueOf(resourceVersion)).withCreationTimestamp("2026-01-01T00:00:00Z")
                .addToLabels("app.kubernetes.io/name", owned ? "bench" : "other-app")
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Update")
                        .withApiVersion("v1").withTime("2026-01-01T00:00:00Z").build())
                .endMetadata()
                .addToData("payload", java.util.Base64.getEncoder().encodeToString(data));
        if (owned) {
            builder.editMetadata().addToLabels("kubeloop.dev/applied-by", "bench")
                    .addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("kubeloop.dev/v1")
                            .withKind("Widget").withName("w").withUid("uid-w").withController(true).build())
                    .endMetadata();
        }
        return builder.build();
    }
}
