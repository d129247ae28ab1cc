package io.ferry.runtime;

import java.util.List;
import java.util.function.Predicate;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/** What one class logs while a test runs (logback's list appender on its logger), detached on close. */
final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private CapturedLog(String loggerName) {
        this.logger = (Logger) LoggerFactory.getLogger(loggerName);
        appender.start();
        logger.addAppender(appender);
    }

    static CapturedLog of(Class<?> source) {
        return new CapturedLog(source.getName());
    }

    /** For a class this module cannot see (package-private elsewhere), by its logger's name. */
    static CapturedLog of(String loggerName) {
        return new CapturedLog(loggerName);
    }

    /** The formatted lines logged at {@code level} so far, in order. */
    List<String> lines(Level level) {
        // The appender adds under its own lock (loggers call it from any thread): copy under the same lock.
        synchronized (appender) {
            return appender.list.stream().filter(event -> event.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    /** The levels of the lines that {@code match}, in the order they were logged. */
    List<Level> levelsOf(Predicate<String> match) {
        synchronized (appender) {
            return appender.list.stream().filter(event -> match.test(event.getFormattedMessage())).map(ILoggingEvent::getLevel).toList();
        }
    }

    /** How many lines logged at {@code level} contain {@code text}. */
    long count(Level level, String text) {
        return lines(level).stream().filter(line -> line.contains(text)).count();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
