package io.ferry.provider.artemis;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;

import org.apache.activemq.artemis.api.core.ActiveMQAddressFullException;
import org.apache.activemq.artemis.api.core.ActiveMQConnectionTimedOutException;
import org.apache.activemq.artemis.api.core.ActiveMQDuplicateIdException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.core.client.impl.ClientConsumerInternal;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQMessageConsumer;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;

import io.ferry.api.FerryMessage;
import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BridgeProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.BufferedMessages;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;
import io.ferry.core.provider.UnreadMessage;

/**
 * ActiveMQ Artemis over its core protocol: {@code tcp://host:61616?...} (list, HA and discovery forms
 * too). Its client's own reconnection stays off (its default, {@code reconnectAttempts=0}). The target
 * removes duplicates: every message carries {@code _AMQ_DUPL_ID}, the source message's id, and the
 * broker's duplicate detection drops the copy a crash between the two commits would leave.
 */
public final class ArtemisProvider implements BrokerProvider {

    public static final String NAME = "artemis";
    /** Artemis's duplicate detection header. */
    private static final SimpleString DUPLICATE_ID_NAME = org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID;
    private static final String DUPLICATE_ID = DUPLICATE_ID_NAME.toString();
    /**
     * Unless the URL sets it: the bytes a producer may send before the broker grants more. Artemis's
     * default, 64 KiB, holds about 20 messages of 3 KB, so a batch would stop several times for credits,
     * a round trip each (docs/benchmarks.md, "What moved Ferry from 0.56-0.81x to level"); 4 MiB holds a
     * full batch of the default 1,000 such messages.
     */
    static final int PRODUCER_WINDOW_BYTES = 4 * 1024 * 1024;
    static final String PRODUCER_WINDOW_OPTION = "producerWindowSize";
    static final String BLOCK_ON_DURABLE_SEND_OPTION = "blockOnDurableSend";
    /**
     * Unless the URL sets them: how a connection whose network went silent (no reset, no FIN) is
     * found out. The client checks every {@code clientFailureCheckPeriod} whether anything came from the
     * broker in the last {@code connectionTTL} (it pings every half TTL, so a live broker always answers):
     * a silent connection fails 5-11 s after its last data (a window that saw data just before the cut passes,
     * so the next one fails), where Artemis's defaults (30 s, 60 s) took
     * up to two minutes. The broker takes the same TTL, so it rolls back the dead session's
     * transaction, and gives its messages to the next consumer, about as soon.
     */
    static final long FAILURE_CHECK_PERIOD_MILLIS = 1_000;
    static final String FAILURE_CHECK_PERIOD_OPTION = "clientFailureCheckPeriod";
    static final long CONNECTION_TTL_MILLIS = 5_000;
    static final String CONNECTION_TTL_OPTION = "connectionTTL";
    /**
     * Unless the URL sets it: how long a blocking call (a commit, creating a session) waits for its
     * answer. Above the failure check's worst case (two TTL windows and a check period, 11 s), so a silent
     * network is reported as such by the failure check first, which also ends the blocked call; Artemis's
     * default, 30 s, kept a worker in a dead commit that long.
     */
    static final long CALL_TIMEOUT_MILLIS = 15_000;
    static final String CALL_TIMEOUT_OPTION = "callTimeout";
    /** Artemis's message codes for its failure check ("Did not receive data from server") and a call's timeout. */
    private static final String NO_DATA_FROM_BROKER = "AMQ219011";
    private static final String CALL_TIMED_OUT = "AMQ219014";
    /** What Artemis's session says when asked for a queue or topic its broker does not have and will not create. */
    private static final Pattern NOT_THERE = Pattern.compile("^There is no (queue|topic) with name .*$");
    private static final Set<String> SCHEMES = Set.of("tcp", "ssl", "vm", "udp", "jgroups");
    private static final String EXAMPLE = "tcp://127.0.0.1:61616";
    private static final Set<String> NETTY_SCHEMES = Set.of("tcp", "ssl");
    /** Read by the client's URL parser rather than set on the factory or the connector. */
    private static final Set<String> PARSER_OPTIONS = Set.of("ha", "type");
    /**
     * The options of the URL parser and the TCP connector that are not text, with their types. The client reads a
     * boolean with Boolean.parseBoolean, so {@code sslEnabled=yes} would turn TLS off without a word, and a number only
     * when it connects, failing every connect.
     */
    static final Map<String, Class<?>> TYPED_OPTIONS = typedOptions();
    /** Artemis's own headers (duplicate id, routing type, large-message size, ...) and its record of an AMQP message's id. */
    private static final String OWN_PREFIX = "_AMQ_";
    private static final String NATIVE_MESSAGE_ID = "NATIVE_MESSAGE_ID";
    private static final SimpleString OWN_HEADER = SimpleString.of(OWN_PREFIX);
    private static final SimpleString NATIVE_MESSAGE_ID_NAME = SimpleString.of(NATIVE_MESSAGE_ID);
    /** The JMS specification reserves this prefix for a client's own properties; reading leaves them behind too. */
    private static final SimpleString VENDOR_PROPERTY = SimpleString.of("JMS_");
    private static final SimpleString SOURCE_MESSAGE_ID_NAME = SimpleString.of(BridgeProperties.SOURCE_MESSAGE_ID);
    /** The Artemis consumer inside Artemis's JMS one, which has no public accessor for it; null if not found. */
    private static final Field ARTEMIS_CONSUMER = artemisConsumerField();
    /** The client's attempts to connect and to reconnect: a negative number means for ever. */
    private static final List<String> ENDLESS_WHEN_NEGATIVE = List.of("reconnectAttempts", "initialConnectAttempts");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        List<BrokerUrls.Address> addresses = BrokerUrls.check(settings.url(), SCHEMES, false, EXAMPLE);
        try (ActiveMQConnectionFactory parsed = new ActiveMQConnectionFactory(settings.url())) {
            if (addresses.stream().allMatch(address -> NETTY_SCHEMES.contains(address.scheme()))) {
                checkOptions(settings);
            }
            BeanProperties.check(parsed.getClass(), settings.properties());
            refuseEndlessReconnection(settings);
        } catch (InvalidConnectionException e) {
            throw e;
        } catch (RuntimeException e) {
            // The client's words may quote the URL: its passwords masked there too.
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + BrokerUrls.masked(e.getMessage()), e);
        }
    }

    /**
     * The client's own reconnection may be bounded (a few attempts to fail over to a backup), never endless: a client that
     * reconnects for ever would hide a lost broker from the worker, which then holds the source's messages without moving them.
     */
    private static void refuseEndlessReconnection(ConnectionSettings settings) {
        for (String name : ENDLESS_WHEN_NEGATIVE) {
            String value = settings.option(name, name);
            if (value != null && value.startsWith("-")) {
                boolean inProperties = settings.properties().containsKey(name);
                throw new InvalidConnectionException(inProperties ? "properties." + name : "url", (inProperties ? ""
                        : "'" + settings.maskedUrl() + "': ") + name + "=" + value + " reconnects for ever inside the client, unseen by"
                        + " Ferry, which reconnects with back-off itself: leave it out, or bound it");
            }
        }
    }

    /**
     * The client reads what it knows of a TCP URL's options and passes over the rest: a misspelt option
     * ({@code sslEnable}) would leave a setting at its default unseen. Known are the connector's keys, the
     * factory's properties (their values of its type) and the two the URL parser itself reads.
     */
    private static void checkOptions(ConnectionSettings settings) {
        for (Map.Entry<String, String> option : BrokerUrls.options(settings.url()).entrySet()) {
            String name = option.getKey();
            boolean known;
            try {
                if (PARSER_OPTIONS.contains(name) || TransportConstants.ALLOWABLE_CONNECTOR_KEYS.contains(name)) {
                    Class<?> type = TYPED_OPTIONS.get(name);
                    if (type != null) {
                        BeanProperties.checkType("url", option.getValue(), type);
                    }
                    continue;
                }
                known = BeanProperties.checkValue(ActiveMQConnectionFactory.class, "url", name, option.getValue());
            } catch (InvalidConnectionException e) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name + "': " + e.getMessage(), e);
            }
            if (!known) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name
                        + "' is not one the artemis client knows");
            }
        }
    }

    private static Map<String, Class<?>> typedOptions() {
        Map<String, Class<?>> types = new HashMap<>();
        for (String flag : List.of("ha", "sslEnabled", "verifyHost", "trustAll", "forceSSLParameters", "useDefaultSslContext",
                "tcpNoDelay", "httpEnabled", "httpRequiresSessionId", "httpUpgradeEnabled", "useServlet", "useEpoll", "useKQueue", "useNio",
                "useGlobalWorkerPool", "useNioGlobalWorkerPool", "socksEnabled", "socksRemoteDNS", "activemq.usemaskedpassword")) {
            types.put(flag, boolean.class);
        }
        for (String number : List.of("port", "localPort", "tcpSendBufferSize", "tcpReceiveBufferSize", "writeBufferLowWaterMark",
                "writeBufferHighWaterMark", TransportConstants.NETTY_CONNECT_TIMEOUT, "handshake-timeout", "remotingThreads",
                "nioRemotingThreads", "socksPort", "socksVersion")) {
            types.put(number, int.class);
        }
        for (String number : List.of("batchDelay", "httpClientIdleTime", "httpClientIdleScanPeriod")) {
            types.put(number, long.class);
        }
        return Map.copyOf(types);
    }

    /** A persistent send outside a transaction waits for the broker unless {@value #BLOCK_ON_DURABLE_SEND_OPTION} is set otherwise. */
    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        boolean confirmsSends = settings.optionUnsetOr(BLOCK_ON_DURABLE_SEND_OPTION, BLOCK_ON_DURABLE_SEND_OPTION, "true");
        return new Capabilities(settings.transacted(), true, true, true, true, confirmsSends);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(settings.url());
        Map<String, String> written = BrokerUrls.options(settings.url());
        if (!written.containsKey(PRODUCER_WINDOW_OPTION)) {
            factory.setProducerWindowSize(PRODUCER_WINDOW_BYTES);
        }
        if (!written.containsKey(FAILURE_CHECK_PERIOD_OPTION)) {
            factory.setClientFailureCheckPeriod(FAILURE_CHECK_PERIOD_MILLIS);
        }
        if (!written.containsKey(CONNECTION_TTL_OPTION)) {
            factory.setConnectionTTL(CONNECTION_TTL_MILLIS);
        }
        if (!written.containsKey(CALL_TIMEOUT_OPTION)) {
            factory.setCallTimeout(CALL_TIMEOUT_MILLIS);
        }
        if (!written.containsKey(TransportConstants.NETTY_CONNECT_TIMEOUT) && factory.getStaticConnectors() != null) {
            for (TransportConfiguration connector : factory.getStaticConnectors()) {
                // TCP (and TLS) connectors only: the in-VM one has no socket to time out.
                if (NettyConnectorFactory.class.getName().equals(connector.getFactoryClassName())) {
                    connector.getParams().put(TransportConstants.NETTY_CONNECT_TIMEOUT, SilentNetwork.CONNECT_TIMEOUT_MS);
                }
            }
        }
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    /**
     * Artemis's failure check says "AMQ219011: Did not receive data from server for /127.0.0.1:61617" and
     * a call timeout "AMQ219014: Timed out after waiting 15,000 ms for response when sending packet 43":
     * neither says that this means the network went silent rather than the broker going away. A missing queue
     * ("Queue orders does not exist") does not say that the broker would create it if its settings let it.
     */
    @Override
    public String explainLoss(ConnectionSettings settings, Throwable failure) {
        // The JMS layer wraps the client's exception as a cause, a linked exception, or only its text.
        for (Throwable cause : Failures.chain(failure)) {
            String message = String.valueOf(cause.getMessage());
            if (cause instanceof InvalidDestinationException && message.contains("does not exist") || NOT_THERE.matcher(message).matches()) {
                return message + ": declare it on the broker, or let the broker create it on demand (auto-create-queues, auto-create-addresses)";
            }
            boolean callTimedOut = message.contains(CALL_TIMED_OUT);
            if (callTimedOut || message.contains(NO_DATA_FROM_BROKER) || cause instanceof ActiveMQConnectionTimedOutException) {
                try (ActiveMQConnectionFactory factory = (ActiveMQConnectionFactory) connectionFactory(settings)) {
                    return callTimedOut ? SilentNetwork.noAnswer(factory.getCallTimeout()) : SilentNetwork.noData(factory.getConnectionTTL());
                }
            }
        }
        return null;
    }

    @Override
    public void markBridged(Message message, String sourceMessageId, boolean markDuplicate) throws JMSException {
        if (message instanceof ActiveMQMessage artemis) {
            markBridged(artemis.getCoreMessage(), sourceMessageId, markDuplicate);
            return;
        }
        BrokerProvider.super.markBridged(message, sourceMessageId, markDuplicate);
        if (markDuplicate) {
            message.setStringProperty(DUPLICATE_ID, sourceMessageId);
        }
    }

    /**
     * Straight on the core message: the JMS client delivers property names it refuses to set (an AMQP producer's
     * annotations, {@code JMS_AMQP_MA_x-opt-jms-msg-type}, and any name that is not a Java identifier), so clearing and
     * setting them again would fail.
     */
    @Override
    public void addProperties(Message received, Map<String, Object> properties) throws JMSException {
        if (received instanceof ActiveMQMessage artemis) {
            ClientMessage core = artemis.getCoreMessage();
            properties.forEach(core::putObjectProperty);
            return;
        }
        BrokerProvider.super.addProperties(received, properties);
    }

    /** Not through the client's pool of values: each id is new, so looking it up there only costs. */
    private static void markBridged(ClientMessage core, String sourceMessageId, boolean markDuplicate) {
        SimpleString id = SimpleString.of(sourceMessageId);
        core.putStringProperty(SOURCE_MESSAGE_ID_NAME, id);
        if (markDuplicate) {
            core.putStringProperty(DUPLICATE_ID_NAME, id);
        }
    }

    @Override
    public boolean isDuplicate(Throwable failure) {
        return Failures.causedBy(failure, ActiveMQDuplicateIdException.class);
    }

    /**
     * A reply-to written as a bare address, without the JMS client's {@code queue://} or {@code topic://} (as a core
     * client may write one), is neither a Queue nor a Topic to the JMS client: it is carried as the queue of that name,
     * JMS's usual kind of reply destination, rather than dropped.
     */
    @Override
    public FerryMessage.ReplyTo replyTo(Destination destination) throws JMSException {
        if (destination instanceof ActiveMQDestination artemis && artemis.getType() == ActiveMQDestination.TYPE.DESTINATION) {
            return new FerryMessage.ReplyTo(artemis.getAddress(), false);
        }
        return BrokerProvider.super.replyTo(destination);
    }

    /**
     * Named as given. Artemis's session asks its broker for a queue or topic and, where the broker neither has nor
     * creates one of that name, tries the 1.x name ({@code jms.queue.orders}), which a broker creating other addresses on
     * demand creates: the channel would read or fill a queue nobody named. Named directly, a missing destination is
     * refused instead (no round trip either). A connection with {@code enable1xPrefixes} keeps the session's naming.
     */
    @Override
    public Destination destination(Session session, String name, boolean topic) throws JMSException {
        if (session instanceof ActiveMQSession artemis && !artemis.isEnable1xPrefixes()) {
            return topic ? ActiveMQDestination.createTopic(name) : ActiveMQDestination.createQueue(name);
        }
        return BrokerProvider.super.destination(session, name, topic);
    }

    /**
     * Besides JMS's own refusals: with {@code enable1xPrefixes}, Artemis's session answers a request for a queue or
     * topic its broker neither has nor creates with a plain JMS failure that only its text tells apart.
     */
    @Override
    public boolean refusesDestination(Throwable failure) {
        return BrokerProvider.super.refusesDestination(failure)
                || Failures.chain(failure).stream().anyMatch(cause -> NOT_THERE.matcher(String.valueOf(cause.getMessage())).matches());
    }

    /**
     * An address full with policy FAIL: Artemis's client refuses a send once its broker has said so, and its broker
     * refuses the commit of a transaction that would pass the limit.
     */
    @Override
    public boolean isFull(Throwable failure) {
        return Failures.causedBy(failure, ActiveMQAddressFullException.class) || BrokerProvider.super.isFull(failure);
    }

    /** Artemis's client buffer, through the core consumer inside the JMS one; with {@code consumerWindowSize=0} nothing is pushed ahead. */
    @Override
    public BufferedMessages bufferedMessages(MessageConsumer consumer) {
        if (ARTEMIS_CONSUMER == null || !(consumer instanceof ActiveMQMessageConsumer)) {
            return BufferedMessages.UNKNOWN;
        }
        try {
            if (ARTEMIS_CONSUMER.get(consumer) instanceof ClientConsumerInternal internal && internal.getClientWindowSize() != 0) {
                return internal::getBufferSize;
            }
            return BufferedMessages.UNKNOWN;
        } catch (IllegalAccessException e) {
            return BufferedMessages.UNKNOWN;
        }
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(settings.url())) {
            return TlsDiagnosis.explain(factory, failure);
        }
    }

    @Override
    public boolean sendsReceivedMessages() {
        return true;
    }

    @Override
    public boolean lingersByDefault() {
        return true;
    }

    /**
     * Artemis's JMS producer sends a message its client received as it is: a new JMS id, destination,
     * routing type, delivery mode, priority and expiration are set at the send, the body goes out as the
     * broker sent it (no copy into Ferry's form and back). What reading would leave behind is removed from
     * the core message: Artemis's own headers ({@code _AMQ_}, but those JMS shows as JMSXGroupID,
     * JMSXGroupSeq and JMSXUserID) and {@code JMS_} properties. Large messages (streamed), object messages
     * (refused unread) and a temporary reply-to (dropped) go the reading way.
     */
    @Override
    public UnreadMessage leaveUnread(Message received, String sourceMessageId, boolean markDuplicate) throws JMSException {
        if (!(received instanceof ActiveMQMessage artemis) || received instanceof ObjectMessage) {
            return null;
        }
        Destination replyTo = received.getJMSReplyTo();
        ClientMessage core = artemis.getCoreMessage();
        if (replyTo instanceof TemporaryQueue || replyTo instanceof TemporaryTopic || core.isLargeMessage()) {
            return null;
        }
        // Read while the message is as the broker sent it: once its properties change, asking would encode it anew,
        // and the send encodes it again after setting its own.
        long bodySize = core.getBodySize();
        List<SimpleString> notCarried = new ArrayList<>();
        for (SimpleString name : core.getPropertyNames()) {
            if (notCarried(name)) {
                notCarried.add(name);
            }
        }
        notCarried.forEach(core::removeProperty);
        markBridged(core, sourceMessageId, markDuplicate);
        return new UnreadMessage(received, bodySize);
    }

    private static boolean notCarried(SimpleString name) {
        if (name.startsWith(OWN_HEADER)) {
            return !name.equals(org.apache.activemq.artemis.api.core.Message.HDR_GROUP_ID)
                    && !name.equals(org.apache.activemq.artemis.api.core.Message.HDR_GROUP_SEQUENCE)
                    && !name.equals(org.apache.activemq.artemis.api.core.Message.HDR_VALIDATED_USER);
        }
        return name.startsWith(VENDOR_PROPERTY) || name.equals(NATIVE_MESSAGE_ID_NAME);
    }

    @Override
    public boolean isOwnProperty(String name) {
        return name.startsWith(OWN_PREFIX) || NATIVE_MESSAGE_ID.equals(name);
    }

    /** Looked up once: without it, a consumer's buffer is UNKNOWN and the engine asks the broker. */
    private static Field artemisConsumerField() {
        try {
            Field field = ActiveMQMessageConsumer.class.getDeclaredField("consumer");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
