package io.ferry.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.spi.FilterReply;

/** The shipped logging configuration, loaded as `ferry` loads it, asked about what the RabbitMQ JMS client logs. */
class RepeatedRefusalErrorFilterTest {

    @Test
    void aRefusedDeclarationOrPublishIsDroppedAndTheClientsOtherErrorsPass() throws Exception {
        LoggerContext context = new LoggerContext();
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(RepeatedRefusalErrorFilterTest.class.getResource("/logback.xml"));
            Appender<ILoggingEvent> console = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CONSOLE");

            assertThat(console.getFilterChainDecision(event(context, RepeatedRefusalErrorFilter.LOGGER, Level.ERROR,
                    "RabbitMQ exception on queue declare name({}), durable({}), exclusive({}), auto-delete({}), arguments({} + {})")))
                    .isEqualTo(FilterReply.DENY);
            assertThat(console.getFilterChainDecision(event(context, RepeatedRefusalErrorFilter.LOGGER, Level.ERROR,
                    "Cannot acknowledge message received (dTag={})"))).isEqualTo(FilterReply.NEUTRAL);
            // As RabbitMQ 3.10 closes the channel of a user who may not publish to the queue's exchange (a probe, 2026-11-29).
            String accessRefused = "channel error; protocol method: #method<channel.close>(reply-code=403, reply-text=ACCESS_REFUSED"
                    + " - access to exchange 'jms.durable.queues' in vhost '/' refused for user 'ferry-nowrite', class-id=60, method-id=40)";
            assertThat(console.getFilterChainDecision(event(context, RepeatedRefusalErrorFilter.LOGGER, Level.ERROR,
                    "RabbitMQ exception on channel.txCommit() in session {}", new IOException(new IOException(accessRefused)))))
                    .isEqualTo(FilterReply.DENY);
            assertThat(console.getFilterChainDecision(event(context, RepeatedRefusalErrorFilter.LOGGER, Level.ERROR,
                    "RabbitMQ exception on channel.txCommit() in session {}", new IOException("connection reset"))))
                    .as("a commit lost with its connection").isEqualTo(FilterReply.NEUTRAL);
            assertThat(console.getFilterChainDecision(event(context, "io.ferry.core.jms.DestinationRefusal", Level.WARN,
                    "RabbitMQ exception on queue declare, as another logger words it"))).isEqualTo(FilterReply.NEUTRAL);
        } finally {
            context.stop();
        }
    }

    @Test
    void theFiltersFormerNameStillFilters() {
        LoggerContext context = new LoggerContext();
        RepeatedDeclarationErrorFilter former = new RepeatedDeclarationErrorFilter();
        assertThat(former.decide(event(context, RepeatedRefusalErrorFilter.LOGGER, Level.ERROR, RepeatedRefusalErrorFilter.DECLARATION + " name(x)")))
                .isEqualTo(FilterReply.DENY);
    }

    private static ILoggingEvent event(LoggerContext context, String logger, Level level, String message) {
        return event(context, logger, level, message, new IOException("refused"));
    }

    private static ILoggingEvent event(LoggerContext context, String logger, Level level, String message, Throwable thrown) {
        return new LoggingEvent(Logger.class.getName(), context.getLogger(logger), level, message, thrown, new Object[0]);
    }
}
