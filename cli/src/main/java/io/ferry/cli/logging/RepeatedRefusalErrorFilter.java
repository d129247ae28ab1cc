package io.ferry.cli.logging;

import java.util.List;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops the RabbitMQ JMS client's errors for a queue its broker refuses: a declaration refused, and a commit or rollback
 * on a channel the broker closed because the user may not publish there (ACCESS_REFUSED) or the exchange is gone
 * (NOT_FOUND). The client logs one, with a stack trace, at each of the adapter's attempts (every few seconds while the
 * refusal lasts) and throws the same failure to the adapter, which logs the refusal once, with what to do. Its other
 * errors pass, a commit lost with its connection among them. An appender's filter: it sees only what is logged, never a
 * call that logging skips.
 */
public class RepeatedRefusalErrorFilter extends Filter<ILoggingEvent> {

    static final String LOGGER = "com.rabbitmq.jms.client.RMQSession";
    static final String DECLARATION = "RabbitMQ exception on queue declare";
    static final List<String> TRANSACTION_ENDS = List.of("RabbitMQ exception on channel.txCommit()",
            "RabbitMQ exception on channel.txRollback()");
    /** How the AMQP client words a channel closed with ACCESS_REFUSED or NOT_FOUND. */
    static final List<String> REFUSING_CLOSES = List.of("reply-code=403,", "reply-code=404,");

    @Override
    public FilterReply decide(ILoggingEvent event) {
        String message = event.getMessage();
        if (!LOGGER.equals(event.getLoggerName()) || message == null) {
            return FilterReply.NEUTRAL;
        }
        boolean refused = message.startsWith(DECLARATION)
                || TRANSACTION_ENDS.stream().anyMatch(message::startsWith) && causedByRefusingClose(event.getThrowableProxy());
        return refused ? FilterReply.DENY : FilterReply.NEUTRAL;
    }

    private static boolean causedByRefusingClose(IThrowableProxy thrown) {
        for (IThrowableProxy cause = thrown; cause != null; cause = cause.getCause()) {
            String text = cause.getMessage();
            if (text != null && REFUSING_CLOSES.stream().anyMatch(text::contains)) {
                return true;
            }
        }
        return false;
    }
}
