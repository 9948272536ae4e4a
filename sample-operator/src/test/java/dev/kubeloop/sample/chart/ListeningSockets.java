package dev.kubeloop.sample.chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The TCP ports this JVM listens on, as Linux reports them: {@code /proc/self/net/tcp} and
 * {@code tcp6} list the network namespace's sockets; those whose inode is one of this process's
 * file descriptors ({@code /proc/self/fd/* -> socket:[inode]}) and whose state is LISTEN are ours.
 * What {@code ss -ltnp} would print for the process, without needing {@code ss}.
 */
final class ListeningSockets {

    private static final String LISTEN = "0A";

    private ListeningSockets() {
    }

    static boolean supported() {
        return Files.isReadable(Path.of("/proc/self/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** The local ports of this process's listening TCP sockets (IPv4 and IPv6). */
    static Set<Integer> ports() {
        Set<String> inodes = socketInodes();
        Set<Integer> ports = new TreeSet<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(path)) {
                lines.skip(1).map(String::trim).map(line -> line.split("\\s+")).forEach(fields -> {
                    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                    if (fields.length > 9 && LISTEN.equals(fields[3]) && inodes.contains(fields[9])) {
                        String local = fields[1];
                        ports.add(Integer.parseInt(local.substring(local.indexOf(':') + 1), 16));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ports;
    }

    private static Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed between the listing and the read: not a socket we still hold
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return inodes;
    }
}
