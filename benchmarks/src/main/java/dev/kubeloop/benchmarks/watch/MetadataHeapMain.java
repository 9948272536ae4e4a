package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Heap per cached object, whole against metadata-only, for Secrets with 4 KiB of data. Each round
 * runs, for each way of caching, one child JVM ({@link MetadataHeapChild}) that caches N Secrets
 * through the runtime's informers and one that caches none, both reading the heap after full
 * collections (the resource-bounds method); bytes per object are the difference over N. The
 * order of the two ways alternates between rounds. A benchmark, not a test: nothing is asserted.
 *
 * <p>By default the Secrets come from an in-process list server ({@link ListServer}), which, like
 * fabric8's mock, ignores the metadata {@code Accept} header and sends whole objects: the runtime
 * strips them to their metadata before caching, so the heap figure is the same, but list sizes and
 * times would not be, and are not reported. With {@code --kubeconfig=true} the child JVMs use the
 * kubeconfig's API server (e.g. {@code scripts/local-apiserver.sh}): the Secrets are created there
 * once (kept for later runs), and each round also measures the LIST's size and time, whole and
 * metadata-only, from the watch cache and from etcd ({@link ListTransfer}).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.kubeloop.benchmarks.watch.MetadataHeapMain [--secrets=10000] [--data-bytes=4096] [--rounds=3]
 * [--kubeconfig=false] [--lists=5] [--out=target/metadata-heap] [--quiet-load=0] [--quiet-wait-seconds=600]};
 * with {@code --quiet-load=1.0} each round first waits (at most {@code --quiet-wait-seconds}) until
 * the machine's 1-minute load is below 1.0.
 */
public final class MetadataHeapMain {

    private static final String NAMESPACE = "heap-secrets";
    private static final String EMPTY_NAMESPACE = "heap-empty";

    private MetadataHeapMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("secrets", "10000", "data-bytes", "4096",
                "rounds", "3", "kubeconfig", "false", "lists", "5", "out", "target/metadata-heap", "quiet-load", "0",
                "quiet-wait-seconds", "600"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --flag=value, got " + arg);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        int secrets = Integer.parseInt(options.get("secrets"));
        int dataBytes = Integer.parseInt(options.get("data-bytes"));
        int rounds = Integer.parseInt(options.get("rounds"));
        int lists = Integer.parseInt(options.get("lists"));
        boolean realServer = Boolean.parseBoolean(options.get("kubeconfig"));
        double quietLoad = Double.parseDouble(options.get("quiet-load"));
        long quietWaitSeconds = Long.parseLong(options.get("quiet-wait-seconds"));
        Path logs = Path.of(options.get("out"), "logs");

        ListServer server = null;
        KubernetesClient client = null;
        String master;
        if (realServer) {
            client = ClientFactory.create(null, NAMESPACE);
            createSecrets(client, secrets, dataBytes);
            master = null;
        } else {
            KubernetesSerialization serialization = new KubernetesSerialization();
            PreparedList listed = PreparedList.of(Secret.class, TlsSecrets.listed(NAMESPACE, secrets, dataBytes),
                    serialization);
            System.err.printf("%,d Secrets, %,d bytes of JSON each%n", secrets, listed.averageJsonBytes());
            server = ListServer.start(Map.of(
                    "/api/v1/namespaces/" + NAMESPACE + "/secrets", listed,
                    "/api/v1/namespaces/" + EMPTY_NAMESPACE + "/secrets", PreparedList.of(Secret.class, List.of(),
                            serialization)));
            master = server.url();
        }
        List<Round> results = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                String loadBefore = Load.awaitBelow(quietLoad, quietWaitSeconds);
                Map<Boolean, Caching> caching = new LinkedHashMap<>();
                // alternate which way goes first, so that neither always runs on a machine the other warmed
                boolean[] order = round % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false};
                for (boolean metadataOnly : order) {
                    String name = "r" + round + (metadataOnly ? "-metadata" : "-whole");
                    System.err.printf("round %d: %s, load %s%n", round, metadataOnly ? "metadata-only" : "whole",
                            Load.oneMinute());
                    HeapRun empty = HeapRun.run(master, EMPTY_NAMESPACE, metadataOnly, 0,
                            logs.resolve(name + "-empty.log"));
                    HeapRun full = HeapRun.run(master, NAMESPACE, metadataOnly, secrets, logs.resolve(name + ".log"));
                    caching.put(metadataOnly, new Caching(empty.figure("heapUsed"), full.figure("heapUsed"),
                            full.figure("syncMs")));
                }
                List<ListTransfer> transfers = new ArrayList<>();
                for (int i = 0; realServer && i < lists; i++) {
                    for (boolean watchCache : new boolean[] {true, false}) {
                        transfers.add(ListTransfer.measure(client, NAMESPACE, false, watchCache));
                        transfers.add(ListTransfer.measure(client, NAMESPACE, true, watchCache));
                    }
                }
                results.add(new Round(round, caching.get(false), caching.get(true), transfers, loadBefore,
                        Load.oneMinute()));
            }
        } finally {
            if (server != null) {
                server.close();
            }
            if (client != null) {
                client.close();
            }
        }
        HeapTable.print(results, secrets, dataBytes, realServer);
    }

    /** Creates the Secrets that are missing, 8 at a time; the namespaces too. */
    private static void createSecrets(KubernetesClient client, int secrets, int dataBytes) throws Exception {
        for (String namespace : List.of(NAMESPACE, EMPTY_NAMESPACE)) {
            if (client.namespaces().withName(namespace).get() == null) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                        .endMetadata().build()).create();
            }
        }
        int existing = client.secrets().inNamespace(NAMESPACE).list().getItems().size();
        if (existing > secrets || !client.secrets().inNamespace(EMPTY_NAMESPACE).list().getItems().isEmpty()) {
            throw new IllegalStateException("namespace " + NAMESPACE + " holds " + existing + " Secrets (or "
                    + EMPTY_NAMESPACE + " is not empty); delete them or ask for that many");
        }
        System.err.printf("creating %,d Secrets in %s (%,d exist)%n", secrets - existing, NAMESPACE, existing);
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> creates = new ArrayList<>();
            for (int i = 0; i < secrets; i++) {
                Secret secret = TlsSecrets.toCreate(NAMESPACE, i, dataBytes);
                creates.add(creators.submit(() -> {
                    try {
                        client.secrets().inNamespace(NAMESPACE).resource(secret).create();
                    } catch (KubernetesClientException e) {
                        if (e.getCode() != 409) { // made by an earlier run
                            throw e;
                        }
                    }
                }));
            }
            for (Future<?> create : creates) {
                create.get();
            }
        } finally {
            creators.shutdown();
        }
    }

    /**
     * One way of caching in one round.
     *
     * @param emptyHeap heap after full GC with no Secrets cached
     * @param fullHeap heap after full GC with every Secret cached
     * @param syncMillis informer start to cache synced (list, parse, store)
     */
    record Caching(long emptyHeap, long fullHeap, long syncMillis) {

        long bytesPerObject(int objects) {
            return (fullHeap - emptyHeap) / objects;
        }
    }

    /** One round: both ways of caching, and on a real server the lists' transfers. */
    record Round(int number, Caching whole, Caching metadataOnly, List<ListTransfer> transfers, String loadBefore,
            String loadAfter) {

        List<ListTransfer> transfers(boolean metadataOnly, boolean watchCache) {
            return transfers.stream().filter(t -> t.metadataOnly() == metadataOnly && t.watchCache() == watchCache)
                    .toList();
        }
    }
}
