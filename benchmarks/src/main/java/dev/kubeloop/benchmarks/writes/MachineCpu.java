package dev.kubeloop.benchmarks.writes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time of the whole machine and of the processes under measurement (the operator, the local
 * API server and etcd, this harness), from {@code /proc}: the difference is what other work took
 * from the two cores during a phase. The machine is shared, and the 1-minute load average says
 * too little about a 20-second phase; this says how much. Linux only; NaN elsewhere.
 */
final class MachineCpu {

    /** USER_HZ: the unit of /proc's CPU times; 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100;
    /** The state directory of scripts/local-apiserver.sh in this checkout: its PID files. */
    private static final Path LOCAL_APISERVER = Path.of("target/local-apiserver");

    private final double busySeconds;
    private final double measuredSeconds;

    private MachineCpu(double busySeconds, double measuredSeconds) {
        this.busySeconds = busySeconds;
        this.measuredSeconds = measuredSeconds;
    }

    /** A snapshot; {@code operatorPid} is the operator JVM's. */
    static MachineCpu read(long operatorPid) {
        List<Long> measured = new ArrayList<>(List.of(operatorPid, ProcessHandle.current().pid()));
        for (String daemon : List.of("kube-apiserver", "etcd")) {
            try {
                measured.add(Long.parseLong(Files.readString(LOCAL_APISERVER.resolve(daemon + ".pid")).trim()));
            } catch (IOException | NumberFormatException e) {
                // another API server (a kubeconfig elsewhere): its CPU counts as "other"
            }
        }
        double measuredSeconds = 0;
        for (long pid : measured) {
            measuredSeconds += processSeconds(pid);
        }
        return new MachineCpu(machineBusySeconds(), measuredSeconds);
    }

    /** CPU seconds the whole machine was busy between {@code before} and this snapshot. */
    double busySince(MachineCpu before) {
        return busySeconds - before.busySeconds;
    }

    /** Of those, the seconds not spent by the operator, the API server, etcd or the harness. */
    double othersSince(MachineCpu before) {
        return busySince(before) - (measuredSeconds - before.measuredSeconds);
    }

    /** The {@code cpu} line of /proc/stat: every field but idle and iowait is busy. */
    private static double machineBusySeconds() {
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < Math.min(fields.length, 9); i++) { // user .. steal
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(fields[i]);
                }
            }
            return busy / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** utime + stime of a process (all its threads); 0 if it is gone. */
    private static double processSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // the command name may hold spaces: fields count from after its closing parenthesis
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
