package dev.kubeloop.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects what one logger (and its children) logs at {@code level} and above while open, with
 * the logger's level set to {@code level} and its output kept off the console for that time
 * (tests that provoke failures on purpose count the lines rather than flood the build output);
 * restores both on close. Thread-safe: Logback's appenders are.
 */
public final class CapturedLogs implements AutoCloseable {

    private final Logger logger;
    private final Level previous;
    private final boolean previousAdditive;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private CapturedLogs(String name, Level level) {
        this.logger = (Logger) LoggerFactory.getLogger(name);
        this.previous = logger.getLevel();
        this.previousAdditive = logger.isAdditive();
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(level);
        logger.setAdditive(false); // captured, not printed: a lowered level must not flood the console
    }

    public static CapturedLogs of(String loggerName, Level level) {
        return new CapturedLogs(loggerName, level);
    }

    /** Captures what {@code type}'s logger logs at {@code level} or above. */
    public static CapturedLogs of(Class<?> type, Level level) {
        return new CapturedLogs(type.getName(), level);
    }

    public List<ILoggingEvent> events() {
        synchronized (appender) { // AppenderBase.doAppend appends under the appender's lock
            return List.copyOf(appender.list);
        }
    }

    public List<ILoggingEvent> events(Level level, Class<?> source) {
        return events().stream().filter(e -> e.getLevel() == level && e.getLoggerName().equals(source.getName()))
                .toList();
    }

    /** The captured events at {@code level} or above whose formatted message contains {@code text}. */
    public List<ILoggingEvent> events(Level level, String text) {
        return events().stream().filter(event -> event.getLevel().isGreaterOrEqual(level))
                .filter(event -> event.getFormattedMessage().contains(text)).toList();
    }

    /**
     * Everything the captured events carry as text: the message, its arguments, the MDC and every
     * throwable's class, message and stack frames (causes and suppressed included).
     */
    public String allText() {
        StringBuilder text = new StringBuilder();
        for (ILoggingEvent event : events()) {
            text.append(event.getLevel()).append(' ').append(event.getLoggerName()).append(' ')
                    .append(event.getFormattedMessage()).append(' ').append(event.getMDCPropertyMap()).append('\n');
            appendThrowable(text, event.getThrowableProxy());
        }
        return text.toString();
    }

    private static void appendThrowable(StringBuilder text, IThrowableProxy throwable) {
        if (throwable == null) {
            return;
        }
        text.append(throwable.getClassName()).append(": ").append(throwable.getMessage()).append('\n');
        for (StackTraceElementProxy frame : throwable.getStackTraceElementProxyArray()) {
            text.append("  ").append(frame.getSTEAsString()).append('\n');
        }
        appendThrowable(text, throwable.getCause());
        for (IThrowableProxy suppressed : throwable.getSuppressed()) {
            appendThrowable(text, suppressed);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
        logger.setAdditive(previousAdditive);
        appender.stop();
    }
}
