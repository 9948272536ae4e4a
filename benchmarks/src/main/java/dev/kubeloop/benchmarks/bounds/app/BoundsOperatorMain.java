package dev.kubeloop.benchmarks.bounds.app;

import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The child JVM of {@code ResourceBoundsMain}: starts {@link BoundsApp} against the server at
 * {@code --master} (with {@code kubeloop.informer-list-page-size} set to {@code --list-page-size}),
 * waits until its caches have synced (the context's refresh returns then) and
 * every one of the {@code --objects} objects has been reconciled once, then collects garbage and
 * prints one {@code [bounds] key=value ...} line on stdout: the figures the launcher tabulates.
 * Exits 0 when done, 1 when the objects were not all reconciled within {@code --timeout-seconds};
 * the launcher starts it with {@code -XX:+ExitOnOutOfMemoryError}, so an OutOfMemoryError exits 3.
 */
public final class BoundsOperatorMain {

    private BoundsOperatorMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        int objects = Integer.parseInt(options.get("objects"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(options.get("timeout-seconds")));

        ConfigurableApplicationContext context = new SpringApplicationBuilder(BoundsApp.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .properties("bounds.master-url=" + options.get("master"),
                        "bounds.namespace=" + options.get("namespace"),
                        "kubeloop.reconcilers." + BoundsReconciler.NAME + ".namespaces=" + options.get("namespace"),
                        "kubeloop.informer-list-page-size=" + options.get("list-page-size"))
                .run();
        long readyMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        ControllerManager manager = context.getBean(ControllerManager.class);
        Controller<?> controller = manager.controller(BoundsReconciler.NAME).orElseThrow();
        while (controller.count(ReconcileOutcome.SUCCESS) < objects && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20); // a benchmark's poll: nothing here is asserted on timing
        }
        long reconciledMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        long reconciled = controller.count(ReconcileOutcome.SUCCESS);

        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("objects", objects);
        figures.put("cached", manager.informers().get(0).cachedObjects());
        figures.put("reconciled", reconciled);
        figures.put("errors", controller.count(ReconcileOutcome.ERROR) + controller.count(ReconcileOutcome.CONFLICT));
        figures.put("readyMs", readyMillis);
        figures.put("reconciledMs", reconciledMillis);
        // collections while starting and reconciling, before the full collections of the measurement
        figures.put("gcCount", gcCount());
        figures.put("gcMs", gcMillis());
        figures.put("gc", gcNames());
        figures.put("heapUsed", heapAfterFullGc());
        figures.put("heapMax", Runtime.getRuntime().maxMemory());
        figures.put("nonHeapUsed", ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getUsed());
        figures.put("vmHwmKb", procStatus("VmHWM"));
        figures.put("vmRssKb", procStatus("VmRSS"));
        figures.put("threads", Thread.activeCount());
        StringBuilder line = new StringBuilder("[bounds]");
        figures.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        System.out.println(line);
        System.out.flush();
        context.close();
        System.exit(reconciled >= objects ? 0 : 1);
    }

    /**
     * Full collections until the heap stops shrinking (at most five): one System.gc() can leave
     * garbage that reference processing frees only in the next. Public: the metadata-only heap
     * measurement ({@code watch.MetadataHeapChild}) reads the heap the same way.
     */
    public static long heapAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long after = memory.getHeapMemoryUsage().getUsed();
            if (after >= before) {
                return after;
            }
            before = after;
        }
        return before;
    }

    private static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).filter(c -> c > 0).sum();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    private static String gcNames() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(gc.getName().replace(' ', '_'));
        }
        return String.join(",", names);
    }

    /** A {@code /proc/self/status} field in kB (Linux); -1 where there is none. */
    private static long procStatus(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: no RSS figures
        }
        return -1;
    }
}
