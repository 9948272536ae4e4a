package dev.kubeloop.sample.replica;

import dev.kubeloop.sample.SampleOperatorApplication;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The sample operator, unchanged, with a reconcile journal: the main class of the replicas that
 * {@link OperatorProcess} starts in child JVMs. Besides every reconcile's enter and exit
 * ({@link JournalingReconcilers}) it journals {@code ready} when the application has started (the
 * caches have synced; with leader election the replica leads or stands by), {@code closing} when
 * its context begins to close (SIGTERM), and {@code runtime-stopped} once the Kubeloop runtime's
 * stop has returned (a lifecycle one phase below Kubeloop's is stopped right after it).
 *
 * <p>Configured by system properties ({@value #JOURNAL}, {@value #INSTANCE}, {@value #DELAY} in
 * milliseconds); the arguments are Spring Boot's. Not a Spring component, so the sample's
 * component scan in other tests never picks it up.
 */
public final class JournaledOperator {

    static final String JOURNAL = "journal.file";
    static final String INSTANCE = "journal.instance";
    static final String DELAY = "journal.reconcile-delay-ms";
    /** Whether the delay ignores interrupts, as a reconcile busy computing does (the interrupt stays set). */
    static final String DELAY_IGNORES_INTERRUPTS = "journal.reconcile-delay-ignores-interrupts";
    /** Kubeloop's lifecycle phase ({@code KubeloopLifecycle.PHASE}); lower phases stop later. */
    static final int KUBELOOP_PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private JournaledOperator() {
    }

    public static void main(String[] args) {
        JournalWriter journal = new JournalWriter(Path.of(System.getProperty(JOURNAL)), System.getProperty(INSTANCE));
        Duration delay = Duration.ofMillis(Long.getLong(DELAY, 0));
        ApplicationListener<ApplicationEvent> lifecycle = event -> {
            if (event instanceof ApplicationReadyEvent) {
                journal.write(ReconcileJournal.READY);
            } else if (event instanceof ContextClosedEvent) {
                journal.write(ReconcileJournal.CLOSING);
            }
        };
        new SpringApplicationBuilder(SampleOperatorApplication.class)
                .initializers(context -> {
                    context.getBeanFactory().addBeanPostProcessor(new JournalingReconcilers(journal, delay,
                            Boolean.getBoolean(DELAY_IGNORES_INTERRUPTS)));
                    context.getBeanFactory().registerSingleton("runtimeStoppedJournal", new RuntimeStopped(journal));
                })
                .listeners(lifecycle)
                .run(args);
    }

    /** Journals {@code runtime-stopped} when stopped: just after the Kubeloop runtime's stop has returned. */
    private static final class RuntimeStopped implements SmartLifecycle {

        private final JournalWriter journal;
        private volatile boolean running;

        RuntimeStopped(JournalWriter journal) {
            this.journal = journal;
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            journal.write(ReconcileJournal.RUNTIME_STOPPED);
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return KUBELOOP_PHASE - 1;
        }
    }
}
