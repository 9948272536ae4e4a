package dev.kubeloop.benchmarks.bounds;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Resource bounds: how much memory a minimal Kubeloop operator needs for N cached objects, in the
 * Helm chart's default pod (512 MiB memory limit, heap 75 % of it, 1 CPU). For each N it serves N
 * realistic objects from a pre-serialized list ({@link ListServingDispatcher}), starts the operator
 * in a child JVM of that shape ({@link BoundsChild}), lets it cache and reconcile every object
 * once, and tabulates heap after full collections, bytes per object (against the 0-object run),
 * the peak RSS, collections, whether it ran out of memory, and the times to ready and to all
 * reconciled. A benchmark, not a test: nothing is asserted.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.kubeloop.benchmarks.bounds.ResourceBoundsMain [--objects=0,50000] [--memory=512m]
 * [--max-ram-percentage=75] [--cpus=1] [--list-page-size=0] [--timeout-seconds=600]
 * [--out=target/bounds]}; {@code --list-page-size} sets {@code kubeloop.informer-list-page-size}
 * (0, Kubeloop's default: one list response).
 */
public final class ResourceBoundsMain {

    // the mock web server logs every request at INFO through java.util.logging; held so the level sticks
    private static final Logger MOCK_WEB_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");
    private static final double MIB = 1024 * 1024;

    private ResourceBoundsMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("objects", "0,50000", "memory", "512m",
                "max-ram-percentage", "75", "cpus", "1", "list-page-size", "0", "timeout-seconds", "600", "out", "target/bounds"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --flag=value, got " + arg);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        MOCK_WEB_SERVER_LOG.setLevel(Level.WARNING);
        BoundsChild.JvmShape shape = new BoundsChild.JvmShape(options.get("memory"),
                Integer.parseInt(options.get("max-ram-percentage")), Integer.parseInt(options.get("cpus")));
        Duration timeout = Duration.ofSeconds(Long.parseLong(options.get("timeout-seconds")));
        long listPageSize = Long.parseLong(options.get("list-page-size"));
        Path out = Path.of(options.get("out"));
        List<Integer> counts = Arrays.stream(options.get("objects").split(",")).map(String::trim)
                .map(Integer::valueOf).toList();

        KubernetesSerialization serialization = new KubernetesSerialization();
        List<Row> rows = new ArrayList<>();
        for (int count : counts) {
            PreparedObjects objects = PreparedObjects.create(count, serialization);
            ListServingDispatcher dispatcher = new ListServingDispatcher(objects,
                    PreparedObjects.discovery(serialization));
            MockWebServer server = new MockWebServer();
            server.setDispatcher(dispatcher);
            server.start(InetAddress.getLoopbackAddress(), 0);
            try {
                System.err.printf("resource bounds: %d objects (%d bytes of JSON each), child JVM %s%n", count,
                        objects.averageJsonBytes(), shape);
                BoundsChild child = BoundsChild.run(server.url("/").toString(), count, listPageSize, shape, timeout,
                        out.resolve("logs").resolve("bounds-" + count + "-page-" + listPageSize + ".log"));
                rows.add(new Row(count, objects.averageJsonBytes(), child, dispatcher.statusWritten(),
                        dispatcher.lists(), dispatcher.unexpected()));
            } finally {
                server.shutdown();
            }
        }
        print(rows, shape, listPageSize);
    }

    private static void print(List<Row> rows, BoundsChild.JvmShape shape, long listPageSize) {
        long emptyHeap = rows.stream().filter(row -> row.objects() == 0 && !row.child().outOfMemory())
                .mapToLong(row -> row.child().figure("heapUsed")).findFirst().orElse(-1);
        System.out.printf("Resource bounds: child JVM -XX:MaxRAM=%s -XX:MaxRAMPercentage=%d "
                + "-XX:ActiveProcessorCount=%d (the chart's default pod: memory limit, heap share, CPU limit), "
                + "kubeloop.informer-list-page-size=%d%n", shape.memory(), shape.maxRamPercentage(), shape.cpus(),
                listPageSize);
        System.out.println("| objects | JSON B/object | max heap MiB | GC | heap after full GC MiB | bytes/object "
                + "| max RSS MiB | GCs (time s) | OOM | ready s | all reconciled s | status written | lists |");
        System.out.println("|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|");
        for (Row row : rows) {
            BoundsChild child = row.child();
            long heap = child.figure("heapUsed");
            String perObject = row.objects() > 0 && emptyHeap >= 0 && heap >= 0
                    ? String.format("%,d", (heap - emptyHeap) / row.objects()) : "n/a";
            System.out.printf("| %,d | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %,d | %d |%n", row.objects(),
                    row.jsonBytes(), mib(child.figure("heapMax")), child.figures().getOrDefault("gc", "?"), mib(heap),
                    perObject, child.figure("vmHwmKb") < 0 ? "n/a" : String.format("%.0f",
                            child.figure("vmHwmKb") / 1024.0),
                    child.figure("gcCount") < 0 ? "n/a" : child.figure("gcCount") + " ("
                            + String.format("%.1f", child.figure("gcMs") / 1000.0) + ")",
                    child.outOfMemory() ? "yes" : "no", seconds(child.figure("readyMs")),
                    seconds(child.figure("reconciledMs")), row.statusWritten(), row.lists());
            if (child.exitCode() != 0 || row.unexpected() > 0) {
                System.out.printf("  objects=%d: child exit code %d, %d unexpected requests, figures %s%n",
                        row.objects(), child.exitCode(), row.unexpected(), child.figures());
            }
        }
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%.0f", bytes / MIB);
    }

    private static String seconds(long millis) {
        return millis < 0 ? "n/a" : String.format("%.1f", millis / 1000.0);
    }

    /** One object count's run. */
    private record Row(int objects, long jsonBytes, BoundsChild child, int statusWritten, int lists,
            int unexpected) {
    }
}
