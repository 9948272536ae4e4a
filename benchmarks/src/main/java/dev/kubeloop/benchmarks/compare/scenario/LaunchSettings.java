package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.contender.ContenderMain;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
import dev.kubeloop.benchmarks.compare.contender.kubeloop.KubeloopContender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How contender JVMs are started: the same java binary and class path as the launcher, a fixed
 * heap for all ({@code -Xms} = {@code -Xmx}), G1 (what the JVM picks on this machine anyway, made
 * explicit), a JFR recording, a class-data-sharing archive and the JDK's ahead-of-time cache for
 * the contenders asked for.
 *
 * @param heap the {@code -Xmx} value, e.g. {@code 1g}
 * @param workers worker threads for every contender
 * @param outDir where logs and recordings go
 * @param jfrContenders contenders to record with JFR ({@code settings=profile})
 * @param timeout the longest any single wait may take
 * @param settle the quiet period before CPU is read (see {@link ScenarioContext#settle()})
 * @param cdsContenders contenders started with a dynamic class-data-sharing archive of their own
 *     (written by an unreported training run before the first round)
 * @param aotContenders contenders started with an ahead-of-time cache of their own (JDK 25 and later:
 *     JEP 483, 514 and 515; written by an unreported training run before the first round)
 * @param write how every writing contender writes the status (the same request for all)
 */
public record LaunchSettings(String heap, int workers, Path outDir, Set<String> jfrContenders, Duration timeout,
        Duration settle, Set<String> cdsContenders, Set<String> aotContenders, StatusWrite write) {

    List<String> command(String contender, String runName, List<String> contenderArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + heap);
        command.add("-Xmx" + heap);
        command.add("-XX:+UseG1GC");
        if (cdsContenders.contains(contender)) {
            // the JVM's own CDS, as `java -XX:SharedArchiveFile` in a container would use it
            // the first run of the invocation (CompareMain's unreported training run) writes the archive at exit
            command.add((Files.exists(cdsArchive(contender)) ? "-XX:SharedArchiveFile=" : "-XX:ArchiveClassesAtExit=")
                    + cdsArchive(contender).toAbsolutePath());
        }
        if (aotContenders.contains(contender)) {
            // the JDK's AOT cache (classes loaded and linked, method profiles), as `java -XX:AOTCache` in a
            // container would use it; the training run records with -XX:AOTCacheOutput and the JVM writes
            // the cache when it exits (in a child JVM of its own, which the launcher waits for)
            command.add((Files.exists(aotCache(contender)) ? "-XX:AOTCache=" : "-XX:AOTCacheOutput=")
                    + aotCache(contender).toAbsolutePath());
        }
        if (contender.equals(KubeloopContender.SPRING_AOT)) {
            // the bean definitions and initializer Spring AOT generated when the benchmarks were built, instead
            // of configuration classes parsed and conditions evaluated at start-up
            command.add("-Dspring.aot.enabled=true");
        }
        if (jfrContenders.contains(contender)) {
            command.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                    + jfrFile(runName).toAbsolutePath());
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ContenderMain.class.getName());
        command.addAll(contenderArgs);
        return command;
    }

    public Path cdsArchive(String contender) {
        return outDir.resolve("cds").resolve(contender.replace('+', '-') + ".jsa");
    }

    public Path aotCache(String contender) {
        return outDir.resolve("aot").resolve(contender.replace('+', '-') + ".aot");
    }

    /** Whether the contender starts from an archive of its own, which a training run must write first. */
    public boolean archived(String contender) {
        return cdsContenders.contains(contender) || aotContenders.contains(contender);
    }

    /** The archive a training run writes for the contender. */
    public Path archive(String contender) {
        return aotContenders.contains(contender) ? aotCache(contender) : cdsArchive(contender);
    }

    Path logFile(String runName) {
        return outDir.resolve("logs").resolve(runName + ".log");
    }

    Path jfrFile(String runName) {
        return outDir.resolve("jfr").resolve(runName + ".jfr");
    }
}
