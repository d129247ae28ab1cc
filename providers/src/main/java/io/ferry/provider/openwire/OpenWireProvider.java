package io.ferry.provider.openwire;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.ActiveMQMessageConsumer;
import org.apache.activemq.ActiveMQSession;
import org.apache.activemq.ActiveMQSslConnectionFactory;
import org.apache.activemq.RedeliveryPolicy;
import org.apache.activemq.command.TransactionId;
import org.apache.activemq.command.TransactionInfo;
import org.apache.activemq.transport.InactivityIOException;
import org.apache.activemq.transport.RequestTimedOutIOException;
import org.apache.activemq.transport.Transport;
import org.apache.activemq.transport.TransportFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.BufferedMessages;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;
import io.ferry.core.provider.TlsProblems;

/**
 * ActiveMQ Classic over OpenWire, through its Jakarta client (6.x): {@code tcp://host:61616?...}, or
 * {@code ssl://} with the factory's trust store set as properties ({@code trustStore},
 * {@code trustStorePassword}). One broker per URL: {@code failover:} would reconnect inside the client.
 *
 * <p>The client's own redelivery policy would, after six redeliveries, move a message to ActiveMQ.DLQ by
 * itself, and wait a second before each: Ferry decides about poison messages itself (its error queue),
 * so unless the URL sets a policy, redelivery is immediate and never ends in the client. The client has
 * no JMS 2 shared subscriptions: a channel cannot consume a topic through it (refused at start-up);
 * consume a virtual topic's queue, or reach the broker over AMQP.
 */
public final class OpenWireProvider implements BrokerProvider {

    public static final String NAME = "openwire";
    private static final Logger LOG = LoggerFactory.getLogger(OpenWireProvider.class);
    /** The rollback after a refused commit goes to a broker that has just answered: a bound, not an expected wait. */
    private static final int ROLLBACK_TIMEOUT_MS = 30_000;
    /** How the broker answers a rollback of a transaction it has already ended. */
    private static final String NO_SUCH_TRANSACTION = "has not been started";
    private static final Set<String> SCHEMES = Set.of("tcp", "ssl", "nio", "nio+ssl", "auto", "auto+ssl", "auto+nio", "auto+nio+ssl");
    private static final String EXAMPLE = "tcp://127.0.0.1:61616";
    private static final String MAXIMUM_REDELIVERIES = "jms.redeliveryPolicy.maximumRedeliveries";
    /** How the client's transport factory names the options it could not set. */
    private static final Pattern UNREAD_OPTIONS = Pattern.compile("Invalid connect parameters: \\{(.*)}");
    /**
     * How often the client checks that data came from the broker (both ends keep to the shorter of the two sides'
     * value, and each sends a keep-alive once it has sent nothing for a third of it): it gives the connection up at the
     * second check in a row that found nothing, 4-6 s after the last data (the client's own value, 30 s: 60-90 s), and
     * the broker lets go of the adapter's connection as soon. Checks begin this long after connecting (its own: 10 s).
     */
    static final int MAX_INACTIVITY_MS = 2_000;
    /** How the client's inactivity monitor says how often it checked: "Channel was inactive for too (>2000) long". */
    private static final Pattern INACTIVE_FOR = Pattern.compile("inactive for too \\(>(\\d+)\\)");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        String url = settings.url();
        String lower = url == null ? "" : url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("failover:") || lower.startsWith("discovery:")) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': give one broker's URL; failover: reconnects inside "
                    + "the client, and Ferry reconnects by itself");
        }
        if (url != null && SCHEMES.stream().noneMatch(scheme -> lower.startsWith(scheme + "://"))) {
            // fanout:, static:, peer: and the like wrap brokers' URLs in a transport of the client's own, which would reconnect,
            // or send to several brokers, inside the client, and take none of Ferry's options.
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': give one broker's URL, like " + EXAMPLE
                    + "; a transport that wraps others reconnects inside the client, and Ferry reconnects by itself");
        }
        BrokerUrls.check(url, SCHEMES, true, EXAMPLE);
        String limit = BrokerUrls.option(url, MAXIMUM_REDELIVERIES);
        if (limit != null && !limit.strip().equals(Integer.toString(RedeliveryPolicy.NO_MAXIMUM_REDELIVERIES))) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + MAXIMUM_REDELIVERIES + " would have the client move "
                    + "a message handed back more often to ActiveMQ.DLQ by itself, past Ferry's error queue (the channel's max-attempts "
                    + "decides): leave it out");
        }
        try {
            checkTransportOptions(settings, factory(settings));
        } catch (InvalidConnectionException e) {
            throw e;
        } catch (RuntimeException e) {
            // The client's words may quote the URL: its passwords masked there too.
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + BrokerUrls.masked(e.getMessage()), e);
        }
    }

    /**
     * The factory refuses a {@code jms.} option it does not know; the transport's options are read only when
     * it connects, and one it does not know fails every attempt. So the transport is made here, unstarted
     * (nothing connects), and what it left unread refused.
     */
    private static void checkTransportOptions(ConnectionSettings settings, ActiveMQConnectionFactory factory) {
        Transport transport = null;
        try {
            transport = TransportFactory.connect(new URI(factory.getBrokerURL()));
        } catch (IllegalArgumentException e) {
            Matcher unread = UNREAD_OPTIONS.matcher(String.valueOf(e.getMessage()));
            if (unread.find()) {
                // Names only: a value may be a secret.
                String names = String.join(", ", Arrays.stream(unread.group(1).split(", ")).map(option -> option.split("=", 2)[0]).toList());
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': unknown to the openwire client: " + names);
            }
        } catch (Exception e) {
            // Anything else is the connection's to report when it is made, as before.
        } finally {
            if (transport != null) {
                try {
                    transport.stop();
                } catch (Exception ignored) {
                    // It never started.
                }
            }
        }
    }

    /**
     * The ActiveMQ client waits for the broker's answer to a persistent send outside a transaction unless told to send without
     * it ({@code useAsyncSend}, which {@code alwaysSyncSend} overrules). Read on the safe side: any value of
     * {@code useAsyncSend} but false counts as true.
     */
    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        boolean confirmsSends = "true".equalsIgnoreCase(settings.option("jms.alwaysSyncSend", "alwaysSyncSend"))
                || settings.optionUnsetOr("jms.useAsyncSend", "useAsyncSend", "false");
        return new Capabilities(settings.transacted(), false, false, false, true, confirmsSends);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        return factory(settings);
    }

    private static ActiveMQConnectionFactory factory(ConnectionSettings settings) {
        String url = BrokerUrls.withDefaults(settings.url(), defaultOptions(settings.url()));
        boolean ssl = url.toLowerCase(Locale.ROOT).contains("ssl://");
        ActiveMQConnectionFactory factory = ssl ? new ActiveMQSslConnectionFactory(url) : new ActiveMQConnectionFactory(url);
        // Each unless the URL sets it: the client's own limit (6) would have it give a message up to ActiveMQ.DLQ, past
        // Ferry's error queue, and its delays would hold a batch handed back.
        RedeliveryPolicy policy = factory.getRedeliveryPolicy();
        if (BrokerUrls.option(url, MAXIMUM_REDELIVERIES) == null) {
            policy.setMaximumRedeliveries(RedeliveryPolicy.NO_MAXIMUM_REDELIVERIES);
        }
        if (BrokerUrls.option(url, "jms.redeliveryPolicy.initialRedeliveryDelay") == null) {
            policy.setInitialRedeliveryDelay(0);
        }
        if (BrokerUrls.option(url, "jms.redeliveryPolicy.redeliveryDelay") == null) {
            policy.setRedeliveryDelay(0);
        }
        // Advisory topics serve clients that browse destinations; a bridge never does.
        factory.setWatchTopicAdvisories(false);
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    /**
     * A send the broker does not answer (one in a transaction, or a non-persistent one) that it refuses as full
     * ({@code sendFailIfNoSpace}) is reported to the connection's listener, and the broker marks its transaction to roll
     * back, failing the commit: the connection goes on unless the client says its transport failed. Anything else
     * reported there gives the connection up.
     */
    @Override
    public boolean connectionFailed(Connection connection, JMSException reported) {
        return !isFull(reported) || !(connection instanceof ActiveMQConnection openWire) || !transportUp(openWire);
    }

    /**
     * The client's inactivity monitor says "Channel was inactive for too (>2000) long: tcp://...", naming its check
     * rather than the likely cause; it speaks at the second check in a row that found no data, so the silence lasted
     * at least twice that.
     */
    @Override
    public String explainLoss(ConnectionSettings settings, Throwable failure) {
        InactivityIOException inactive = Failures.find(failure, InactivityIOException.class);
        Matcher checked = INACTIVE_FOR.matcher(inactive == null ? "" : String.valueOf(inactive.getMessage()));
        return checked.find() ? SilentNetwork.noData(2 * Long.parseLong(checked.group(1))) : null;
    }

    /** Ferry's defaults for the options the URL does not set; no keep-alive window where the URL turns keep-alives off. */
    private static Map<String, String> defaultOptions(String url) {
        Map<String, String> options = new LinkedHashMap<>();
        if (!turnedOff(url, "useInactivityMonitor") && !turnedOff(url, "useKeepAlive")) {
            options.put("wireFormat.maxInactivityDuration", Integer.toString(MAX_INACTIVITY_MS));
            options.put("wireFormat.maxInactivityDurationInitalDelay", Integer.toString(MAX_INACTIVITY_MS));
        }
        options.put("connectionTimeout", Integer.toString(SilentNetwork.CONNECT_TIMEOUT_MS));
        return options;
    }

    /** The client turns its inactivity monitor off for any value but exactly "true"; a keep-alive written "TRUE" is taken as off too. */
    private static boolean turnedOff(String url, String option) {
        String value = BrokerUrls.option(url, option);
        return value != null && !value.equals("true");
    }

    private static boolean transportUp(ActiveMQConnection connection) {
        return !connection.isTransportFailed() && !connection.isClosed();
    }

    /**
     * A commit the broker refuses because a send of the transaction failed (refused as full, above) leaves that
     * transaction open on the broker, holding the messages that were taken (against the destination's limit, so a full
     * queue stays full when its consumers have emptied it) until the connection closes; the client counts it rolled
     * back and sends no rollback. It is sent here after any failed commit the broker answered: one the broker ended
     * itself answers that it has no such transaction. A failed transport ends the broker's side by itself.
     */
    @Override
    public void commit(Session session) throws JMSException {
        if (!(session instanceof ActiveMQSession openWire)) {
            session.commit();
            return;
        }
        TransactionId transaction = openWire.getTransactionContext().getTransactionId();
        try {
            session.commit();
        } catch (JMSException e) {
            ActiveMQConnection connection = openWire.getConnection();
            if (transaction != null && answeredByTheBroker(e, connection)) {
                rollBackOnBroker(connection, transaction);
            }
            throw e;
        }
    }

    /**
     * Not a failure to reach the broker: an interrupted wait (a stop; the client then gives the connection up, after the
     * listener may have run) or a failed transport fails as an I/O error, and the broker ends the transaction itself.
     */
    private static boolean answeredByTheBroker(JMSException failure, ActiveMQConnection connection) {
        return !Failures.causedBy(failure, IOException.class) && !Thread.currentThread().isInterrupted() && transportUp(connection);
    }

    private static void rollBackOnBroker(ActiveMQConnection connection, TransactionId transaction) {
        try {
            connection.syncSendPacket(new TransactionInfo(connection.getConnectionInfo().getConnectionId(), transaction,
                    TransactionInfo.ROLLBACK), ROLLBACK_TIMEOUT_MS);
        } catch (JMSException e) {
            boolean timedOut = Failures.causedBy(e, RequestTimedOutIOException.class);
            boolean connectionEnds = !answeredByTheBroker(e, connection) || connection.isClosing();
            if (!timedOut && connectionEnds || String.valueOf(e.getMessage()).contains(NO_SUCH_TRANSACTION)) {
                // The broker ended it already, or the connection failed or is closing (a stop), which ends it too.
                LOG.debug("transaction {} needed no rollback after its commit failed: {}", transaction, e.getMessage());
            } else {
                LOG.warn("the broker did not roll back transaction {} after its commit failed: it may hold that transaction's"
                        + " messages against the destination's limit until the connection closes ({})", transaction, e.getMessage());
            }
        }
    }

    @Override
    public BufferedMessages bufferedMessages(MessageConsumer consumer) {
        if (consumer instanceof ActiveMQMessageConsumer openWire && openWire.getPrefetchNumber() > 0) {
            return openWire::getMessageSize;
        }
        return BufferedMessages.UNKNOWN;
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        String explained = TlsProblems.explain(failure);
        return explained != null ? explained : OpenWireTlsDiagnosis.explain(settings, SCHEMES, EXAMPLE);
    }
}
