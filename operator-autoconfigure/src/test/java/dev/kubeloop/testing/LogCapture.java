package dev.kubeloop.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what one class logs through logback (the logging system of Spring Boot and of these
 * tests), from {@code level} up, until closed, instead of printing it: tests that provoke failures
 * on purpose count the lines rather than flood the build output with them. Closing restores the
 * logger. Thread-safe: logback appends under the appender's lock, and {@link #events()} copies
 * under it.
 */
public final class LogCapture implements AutoCloseable {

    private final Logger logger;
    private final Level previousLevel;
    private final boolean previousAdditive;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(Class<?> type, Level level) {
        this.logger = (Logger) LoggerFactory.getLogger(type);
        this.previousLevel = logger.getLevel();
        this.previousAdditive = logger.isAdditive();
        logger.setLevel(level);
        appender.start();
        logger.addAppender(appender);
        logger.setAdditive(false);
    }

    /** Starts capturing what {@code type}'s logger logs at {@code level} or above. */
    public static LogCapture of(Class<?> type, Level level) {
        return new LogCapture(type, level);
    }

    /** Everything captured so far, in order. */
    public List<ILoggingEvent> events() {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }

    /** The captured events at {@code level} or above whose formatted message contains {@code text}. */
    public List<ILoggingEvent> events(Level level, String text) {
        return events().stream().filter(event -> event.getLevel().isGreaterOrEqual(level))
                .filter(event -> event.getFormattedMessage().contains(text)).toList();
    }

    @Override
    public void close() {
        logger.setAdditive(previousAdditive);
        logger.detachAppender(appender);
        appender.stop();
        logger.setLevel(previousLevel);
    }
}
