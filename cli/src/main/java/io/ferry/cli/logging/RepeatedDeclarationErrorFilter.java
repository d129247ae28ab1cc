package io.ferry.cli.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops the RabbitMQ JMS client's error for a queue declaration its broker refused. The client logs one, with a stack
 * trace, at each of the adapter's attempts (every few seconds while the refusal lasts) and throws the same failure to
 * the adapter, which logs the refusal once, with what to do. Its other errors pass. An appender's filter: it sees only
 * what is logged, never a call that logging skips.
 */
public final class RepeatedDeclarationErrorFilter extends Filter<ILoggingEvent> {

    static final String LOGGER = "com.rabbitmq.jms.client.RMQSession";
    static final String MESSAGE = "RabbitMQ exception on queue declare";

    @Override
    public FilterReply decide(ILoggingEvent event) {
        String message = event.getMessage();
        return LOGGER.equals(event.getLoggerName()) && message != null && message.startsWith(MESSAGE) ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
