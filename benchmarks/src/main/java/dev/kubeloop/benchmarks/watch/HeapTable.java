package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.benchmarks.watch.MetadataHeapMain.Caching;
import dev.kubeloop.benchmarks.watch.MetadataHeapMain.Round;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Prints {@link MetadataHeapMain}'s rounds as Markdown tables on stdout: per round, then median (min–max). */
final class HeapTable {

    private static final double MIB = 1024 * 1024;

    private HeapTable() {
    }

    static void print(List<Round> rounds, int secrets, int dataBytes, boolean realServer) {
        System.out.printf("Heap per cached Secret: %,d Secrets with %,d bytes of data each, child JVMs -Xms1g -Xmx1g "
                + "-XX:+UseG1GC, %s%n%n", secrets, dataBytes, realServer ? "the kubeconfig's API server"
                        : "in-process list server (whole objects, also for metadata-only lists)");
        System.out.println("| round | load before / after | whole B/object | metadata-only B/object "
                + "| whole / metadata-only | whole heap MiB (empty) | metadata-only heap MiB (empty) | whole sync ms "
                + "| metadata-only sync ms |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Round round : rounds) {
            Caching whole = round.whole();
            Caching metadata = round.metadataOnly();
            System.out.printf("| %d | %s / %s | %,d | %,d | %.1f× | %.1f (%.1f) | %.1f (%.1f) | %,d | %,d |%n",
                    round.number(), round.loadBefore(), round.loadAfter(), whole.bytesPerObject(secrets),
                    metadata.bytesPerObject(secrets),
                    (double) whole.bytesPerObject(secrets) / metadata.bytesPerObject(secrets),
                    whole.fullHeap() / MIB, whole.emptyHeap() / MIB, metadata.fullHeap() / MIB,
                    metadata.emptyHeap() / MIB, whole.syncMillis(), metadata.syncMillis());
        }
        System.out.printf("| median (min–max) | | %s | %s | | | | %s | %s |%n",
                spread(rounds, round -> round.whole().bytesPerObject(secrets), "%,.0f"),
                spread(rounds, round -> round.metadataOnly().bytesPerObject(secrets), "%,.0f"),
                spread(rounds, round -> round.whole().syncMillis(), "%,.0f"),
                spread(rounds, round -> round.metadataOnly().syncMillis(), "%,.0f"));
        if (!realServer) {
            return;
        }
        System.out.printf("%nLIST of the %,d Secrets (one request, the body received in full, not parsed; median of "
                + "%d per round)%n%n", secrets, rounds.get(0).transfers(false, true).size());
        System.out.println("| round | read from | whole bytes | whole ms | metadata-only bytes | metadata-only ms "
                + "| list kinds |");
        System.out.println("|---|---|---:|---:|---:|---:|---|");
        for (boolean watchCache : new boolean[] {true, false}) {
            String source = watchCache ? "watch cache" : "etcd";
            for (Round round : rounds) {
                List<ListTransfer> whole = round.transfers(false, watchCache);
                List<ListTransfer> metadata = round.transfers(true, watchCache);
                System.out.printf("| %d | %s | %,.0f | %.0f | %,.0f | %.0f | %s; %s |%n", round.number(), source,
                        median(whole, ListTransfer::bytes), median(whole, ListTransfer::millis),
                        median(metadata, ListTransfer::bytes), median(metadata, ListTransfer::millis),
                        whole.get(0).kind(), metadata.get(0).kind());
            }
            System.out.printf("| median (min–max) | %s | %s | %s | %s | %s | |%n", source,
                    spread(rounds, round -> median(round.transfers(false, watchCache), ListTransfer::bytes), "%,.0f"),
                    spread(rounds, round -> median(round.transfers(false, watchCache), ListTransfer::millis), "%,.0f"),
                    spread(rounds, round -> median(round.transfers(true, watchCache), ListTransfer::bytes), "%,.0f"),
                    spread(rounds, round -> median(round.transfers(true, watchCache), ListTransfer::millis), "%,.0f"));
        }
    }

    /** {@code median (min–max)} of one figure over the rounds. */
    private static <T> String spread(List<T> values, ToDoubleFunction<T> figure, String format) {
        double[] sorted = values.stream().mapToDouble(figure).sorted().toArray();
        return String.format(format, median(sorted)) + " (" + String.format(format, sorted[0]) + "–"
                + String.format(format, sorted[sorted.length - 1]) + ")";
    }

    private static <T> double median(List<T> values, ToDoubleFunction<T> figure) {
        return median(values.stream().mapToDouble(figure).sorted().toArray());
    }

    private static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
