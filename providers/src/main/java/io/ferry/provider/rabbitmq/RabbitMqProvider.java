package io.ferry.provider.rabbitmq;

import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;
import com.rabbitmq.jms.admin.RMQConnectionFactory;
import com.rabbitmq.jms.admin.RMQDestination;
import com.rabbitmq.jms.client.RMQSession;
import com.rabbitmq.jms.util.RMQJMSException;

import io.ferry.api.FerryMessage;
import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.QueueCheck;
import io.ferry.core.provider.SilentNetwork;
import io.ferry.core.provider.TlsProblems;

/**
 * RabbitMQ over AMQP 0-9-1, through the RabbitMQ JMS client: {@code amqp://host:5672/vhost} (the
 * virtual host URL-encoded, {@code %2f} for {@code /}; none given: {@code /}), {@code amqps://} for TLS
 * with the JVM's trust store. Its queues and topics are the JMS client's own (a queue named {@code in}
 * is the durable queue {@code in}). A message another AMQP 0-9-1 client published to a classic source queue, which the JMS
 * client cannot read, is read in the clear ({@link #readOtherwise}).
 *
 * <p>Two options of RabbitMQ's URI form are read from the query, with defaults of Ferry's: {@code heartbeat}
 * ({@value #HEARTBEAT_SECONDS} s; the client's own asks for 60 s) and {@code connection_timeout}
 * ({@link SilentNetwork#CONNECT_TIMEOUT_MS} ms), so that a network gone silent is found out within seconds; and two of
 * Ferry's own, {@link #QUEUE_TYPE} and {@link #VERIFY_HOST}. Any other option is refused rather than ignored.
 *
 * <p>The underlying client's automatic recovery stays off: Ferry reconnects itself. RabbitMQ's
 * JMSXDeliveryCount stops growing on classic queues, so Ferry counts attempts itself; shared
 * non-durable subscriptions are not shared by this client (each consumer gets every message), so a
 * channel consumes a topic only through a durable subscription.
 */
public final class RabbitMqProvider implements BrokerProvider {

    public static final String NAME = "rabbitmq";
    private static final Set<String> SCHEMES = Set.of("amqp", "amqps");
    private static final String EXAMPLE = "amqp://127.0.0.1:5672/%2f";
    /** The factory property that makes a rollback drop what it hands back. */
    private static final String NACK_ON_ROLLBACK = "nackOnRollback";
    /** How long a read in the clear waits for the message just handed back to be the queue's first again. */
    private static final Duration HANDED_BACK_WAIT = Duration.ofSeconds(1);
    /** The JMSType the client gives a message read in the clear, after the body it made of it. */
    private static final Set<String> JMS_CLIENT_BODY_TYPES = Set.of("BytesMessage", "TextMessage");
    /** How a Java object stream starts, as the client's own messages do. */
    private static final byte[] OBJECT_STREAM_MAGIC = {(byte) 0xAC, (byte) 0xED, 0x00, 0x05};
    /** The same read as UTF-8 text, as the client reads a body it takes for text: the two bytes that are no UTF-8 replaced. */
    private static final String OBJECT_STREAM_MAGIC_AS_TEXT = new String(OBJECT_STREAM_MAGIC, StandardCharsets.UTF_8);
    private static final int AMQP_PORT = 5672;
    private static final int AMQPS_PORT = 5671;
    /**
     * The heartbeat Ferry asks for, in seconds (the protocol's unit). Both ends send one after half of it without other
     * frames; the client gives the connection up after two and a quarter heartbeats without data, the broker after two.
     */
    static final int HEARTBEAT_SECONDS = 2;
    private static final String HEARTBEAT = "heartbeat";
    private static final String CONNECTION_TIMEOUT = "connection_timeout";
    /**
     * The type of every queue the client declares on the connection ({@code x-queue-type}): source, target, error queue
     * and a durable subscription's queue; unset, it declares none and RabbitMQ's default applies.
     */
    public static final String QUEUE_TYPE = "queue_type";
    /** Ferry's own option: over TLS whether the broker's certificate must name the URL's host (the client checks no name by default). */
    static final String VERIFY_HOST = "verify_host";
    private static final Set<String> QUEUE_TYPES = Set.of("classic", "quorum");
    private static final String QUEUE_TYPES_LISTED = String.join(", ", new TreeSet<>(QUEUE_TYPES));
    /** The options read from the URL's query, each with Ferry's default. */
    private static final Map<String, String> OPTION_DEFAULTS = Map.of(HEARTBEAT, Integer.toString(HEARTBEAT_SECONDS),
            CONNECTION_TIMEOUT, Integer.toString(SilentNetwork.CONNECT_TIMEOUT_MS));
    /** How the client words missed heartbeats, on blocking I/O (its default) and on NIO or Netty. */
    private static final Pattern MISSED_HEARTBEAT = Pattern.compile("(?:heartbeat = |heartbeat interval: )(\\d+) seconds");
    /** RabbitMQ refusing the client's declaration of a queue that was declared with arguments. */
    private static final Pattern QUEUE_WITH_ARGUMENTS = Pattern.compile("PRECONDITION_FAILED - inequivalent arg '([^']*)' for queue '([^']*)'");
    /** The channel-closing replies that refuse a queue: ACCESS_REFUSED, NOT_FOUND, RESOURCE_LOCKED, PRECONDITION_FAILED. */
    private static final Set<Integer> REFUSALS = Set.of(AMQP.ACCESS_REFUSED, AMQP.NOT_FOUND, AMQP.RESOURCE_LOCKED, AMQP.PRECONDITION_FAILED);
    /**
     * Those that refuse a publish for its destination: the user may not write to the exchange, or it is gone. Not
     * PRECONDITION_FAILED, which a publish also meets for one message (larger than the broker's max_message_size).
     */
    private static final Set<Integer> REFUSALS_IN_USE = Set.of(AMQP.ACCESS_REFUSED, AMQP.NOT_FOUND);
    private static final Pattern CURRENT_VALUE = Pattern.compile("current is the value '([^']*)'");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        List<BrokerUrls.Address> addresses = BrokerUrls.check(settings.url(), SCHEMES, false, EXAMPLE);
        if (addresses.size() > 1) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': give one broker's URL");
        }
        try {
            new URI(settings.url()); // the connection factory reads it so
        } catch (URISyntaxException e) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + BrokerUrls.masked(e.getMessage()), e);
        }
        Map<String, String> options = BrokerUrls.queryOptions(settings.url());
        for (Map.Entry<String, String> option : options.entrySet()) {
            String name = option.getKey();
            String value = option.getValue();
            if (name.equals(QUEUE_TYPE)) {
                if (!QUEUE_TYPES.contains(value)) {
                    throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + QUEUE_TYPE + " '" + value + "' is not one of "
                            + QUEUE_TYPES_LISTED);
                }
                continue;
            }
            if (name.equals(VERIFY_HOST)) {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + VERIFY_HOST + " '" + value + "' is not true or false");
                }
                continue;
            }
            if (!OPTION_DEFAULTS.containsKey(name)) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name + "' is not one of "
                        + HEARTBEAT + " (seconds), " + CONNECTION_TIMEOUT + " (milliseconds), " + QUEUE_TYPE + " (" + QUEUE_TYPES_LISTED + "), "
                        + VERIFY_HOST + " (true, false)");
            }
            if (!value.matches("\\d{1,9}") || name.equals(HEARTBEAT) && Integer.parseInt(value) > 65_535) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': " + name + " '" + value + "' is not a whole number"
                        + (name.equals(HEARTBEAT) ? " from 0 (the broker's) to 65535" : " (0: no bound)"));
            }
        }
        BeanProperties.check(RMQConnectionFactory.class, settings.properties());
        String nack = settings.properties().get(NACK_ON_ROLLBACK);
        if (nack != null && Boolean.parseBoolean(nack.strip())) {
            throw new InvalidConnectionException("properties." + NACK_ON_ROLLBACK, "true would drop (or dead-letter) every message a rollback"
                    + " hands back, and Ferry hands a batch back whenever its target does not take it: leave it out");
        }
    }

    /** Outside a transaction the client publishes without waiting for RabbitMQ's confirmation, persistent messages too. */
    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        return new Capabilities(settings.transacted(), false, true, false, false, false);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        URI uri = URI.create(settings.url());
        boolean tls = "amqps".equalsIgnoreCase(uri.getScheme());
        RMQConnectionFactory factory = new TrackingConnectionFactory();
        factory.setHost(uri.getHost());
        factory.setPort(uri.getPort() > 0 ? uri.getPort() : tls ? AMQPS_PORT : AMQP_PORT);
        String path = uri.getPath();
        factory.setVirtualHost(path == null || path.isEmpty() || path.equals("/") ? "/" : path.substring(1));
        if (settings.user() != null) {
            factory.setUsername(settings.user());
            factory.setPassword(settings.password());
        }
        if (tls) {
            try {
                factory.useSslProtocol(javax.net.ssl.SSLContext.getDefault());
            } catch (NoSuchAlgorithmException e) {
                throw new InvalidConnectionException("url", "TLS is not available in this JVM: " + e.getMessage(), e);
            }
        }
        factory.setAmqpConnectionFactoryPostProcessor(amqpSettings(settings.url()));
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    /** What Ferry sets on the underlying AMQP 0-9-1 client's factory, after the JMS client has set it up. */
    static Consumer<com.rabbitmq.client.ConnectionFactory> amqpSettings(String url) {
        Map<String, String> options = BrokerUrls.queryOptions(url);
        OPTION_DEFAULTS.forEach(options::putIfAbsent);
        int heartbeat = Integer.parseInt(options.get(HEARTBEAT));
        int connectionTimeout = Integer.parseInt(options.get(CONNECTION_TIMEOUT));
        // The client checks no name by default, and the JMS client's own hostnameVerification only warns: any certificate the
        // trust store takes would pass for any broker. verify_host=false leaves it so (a broker known by an address its
        // certificate does not name).
        boolean verifyHost = url.regionMatches(true, 0, "amqps:", 0, "amqps:".length()) && !"false".equals(options.get(VERIFY_HOST));
        return amqp -> {
            if (verifyHost) {
                amqp.enableHostnameVerification();
            }
            // Recovery inside the client would hide a lost broker from the workers (and resend on its own).
            amqp.setAutomaticRecoveryEnabled(false);
            amqp.setTopologyRecoveryEnabled(false);
            amqp.setRequestedHeartbeat(heartbeat);
            amqp.setConnectionTimeout(connectionTimeout);
        };
    }

    /**
     * The client declares each queue it uses (durable); with {@code queue_type} in the URL it declares it of that type, so
     * that a quorum queue, which RabbitMQ refuses to declare again without its type, can be a source or a target.
     */
    @Override
    public void sessionOpened(ConnectionSettings settings, Session session) throws JMSException {
        String queueType = BrokerUrls.queryOptions(settings.url()).get(QUEUE_TYPE);
        if (queueType != null && session instanceof RMQSession rabbitMq) {
            rabbitMq.setQueueDeclareArguments(Map.of("x-queue-type", queueType));
        }
    }

    /** The client waits 100 ms between asks for a message whatever the timeout: Ferry asks sooner ({@link PollingConsumer}). */
    @Override
    public MessageConsumer receiveThrough(MessageConsumer consumer) {
        return new PollingConsumer(consumer);
    }

    /**
     * RabbitMQ drops what a commit sends to a queue that is gone (deleted while in use), and the client cannot see it:
     * Ferry makes sure the queue is still there, bound as the client binds it ({@link QueueBinding}).
     */
    @Override
    public QueueCheck queueCheck(jakarta.jms.Connection connection, String queue) throws JMSException {
        com.rabbitmq.client.Connection amqp = TrackingConnectionFactory.underlying(connection);
        if (amqp == null) {
            throw new JMSException("a connection the rabbitmq provider did not make: cannot check its queue '" + queue + "'");
        }
        Channel channel;
        try {
            channel = amqp.createChannel();
        } catch (IOException | RuntimeException e) {
            throw Failures.jms("cannot open a channel to check queue '" + queue + "': " + Failures.message(e), e);
        }
        if (channel == null) {
            throw new JMSException("cannot open a channel to check queue '" + queue + "': the connection's channels are all in use");
        }
        RMQDestination asTheClientNamesIt = new RMQDestination(queue, true, false);
        return new QueueBinding(channel, queue, asTheClientNamesIt.getAmqpExchangeName(), asTheClientNamesIt.getAmqpRoutingKey());
    }

    /** What to do about a queue of one type (null: declared without one) on a connection declaring another. */
    private static String typeAdvice(String type, String declared) {
        String queue = type == null ? "was declared without a type" : "is a " + type + " queue";
        String connection = declared == null ? "without a type" : QUEUE_TYPE + "=" + declared;
        if (type != null && !QUEUE_TYPES.contains(type)) {
            return queue + ", which the rabbitmq provider does not declare: reach it through amqp";
        }
        return queue + ", and this connection declares its queues " + connection + ": reach it through a connection "
                + (type == null ? "without " + QUEUE_TYPE : "with " + QUEUE_TYPE + "=" + type) + " (a connection's " + QUEUE_TYPE
                + " applies to every queue it uses)";
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        return TlsProblems.explain(failure);
    }

    /**
     * The client reads a queue's messages in its own format only (a Java object stream it wrote); the body of a message
     * another client published fails as a corrupt stream. Classic queues only: a quorum queue (RabbitMQ 3.x) puts a message
     * handed back behind the others, where the read in the clear would not find it first.
     */
    @Override
    public boolean readsOtherwise(ConnectionSettings settings, Throwable failure) {
        // A body shorter than a stream's header (an empty one, say) ends before it.
        return failure instanceof RMQJMSException && !"quorum".equals(BrokerUrls.queryOptions(settings.url()).get(QUEUE_TYPE))
                && Failures.find(failure, ShutdownSignalException.class) == null // a connection's end may come as an EOF too
                && (Failures.causedBy(failure, StreamCorruptedException.class) || Failures.causedBy(failure, EOFException.class));
    }

    /**
     * Reads the queue's first message "in the clear", through a destination marked amqp, as the client reads a queue fed by
     * other AMQP 0-9-1 clients: the body as bytes (as text where a {@code JMSType} header says {@code TextMessage}), the
     * message-id as JMSMessageID, each header as a string property. A message the client wrote itself is left to it.
     */
    @Override
    public Message readOtherwise(Session session, String queue) throws JMSException {
        try (MessageConsumer clear = session.createConsumer(new RMQDestination(queue, null, null, queue))) {
            Message message = clear.receive(HANDED_BACK_WAIT.toMillis());
            if (message == null || writtenByTheJmsClient(message)) {
                return null;
            }
            String type = message.getJMSType();
            if (type != null && JMS_CLIENT_BODY_TYPES.contains(type)) {
                message.setJMSType(null); // the client's note of the body it made, not the publisher's type
            }
            try {
                message.getJMSPriority();
            } catch (NumberFormatException none) {
                message.setJMSPriority(Message.DEFAULT_PRIORITY); // the client fails to read a priority the publisher left out
            }
            return message;
        }
    }

    /** Whether the body is a Java object stream, as the client writes its own messages: as bytes, or as text (a JMSType of TextMessage). */
    private static boolean writtenByTheJmsClient(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            String body = text.getText();
            return body != null && body.startsWith(OBJECT_STREAM_MAGIC_AS_TEXT);
        }
        if (!(message instanceof BytesMessage bytes) || bytes.getBodyLength() < OBJECT_STREAM_MAGIC.length) {
            return false;
        }
        byte[] head = new byte[OBJECT_STREAM_MAGIC.length];
        bytes.readBytes(head);
        bytes.reset();
        return Arrays.equals(head, OBJECT_STREAM_MAGIC);
    }

    /** The client's one destination class is a queue, a topic and a temporary one at once: it says which it is. */
    @Override
    public FerryMessage.ReplyTo replyTo(Destination destination) throws JMSException {
        if (destination instanceof RMQDestination rabbit) {
            return rabbit.isTemporary() ? null : new FerryMessage.ReplyTo(rabbit.getDestinationName(), !rabbit.isQueue());
        }
        return BrokerProvider.super.replyTo(destination);
    }

    /**
     * RabbitMQ refuses a queue by closing the channel (the session), not the connection: the user may not use it
     * (ACCESS_REFUSED), it does not exist (NOT_FOUND), another connection holds it exclusively (RESOURCE_LOCKED), or it
     * was declared otherwise (PRECONDITION_FAILED). The client passes that on as a plain JMS failure.
     */
    @Override
    public boolean refusesDestination(Throwable failure) {
        return closesChannelWith(failure, REFUSALS) || BrokerProvider.super.refusesDestination(failure);
    }

    /** A publish the user may not make (ACCESS_REFUSED) closes the channel, the connection up, at the send or the commit. */
    @Override
    public boolean refusesDestinationInUse(Throwable failure) {
        return closesChannelWith(failure, REFUSALS_IN_USE) || BrokerProvider.super.refusesDestinationInUse(failure);
    }

    /** Whether RabbitMQ closed the channel (not the connection) with one of these replies. */
    static boolean closesChannelWith(Throwable failure, Set<Integer> replyCodes) {
        ShutdownSignalException shutdown = Failures.find(failure, ShutdownSignalException.class);
        return shutdown != null && !shutdown.isHardError() && shutdown.getReason() instanceof AMQP.Channel.Close close
                && replyCodes.contains(close.getReplyCode());
    }

    /**
     * Two losses the client words poorly. Missed heartbeats ("Heartbeat missing with heartbeat = 2 seconds") name the
     * timer rather than the likely cause; the client's MissedHeartbeatException is often known only by that text (the
     * shutdown that wraps it for later calls, an AlreadyClosedException, carries it in its message, not as its cause),
     * and the heartbeat it names is the one agreed with the broker. A queue declared with arguments is refused each
     * time the client declares it (durable, with none but its queue_type), which would otherwise read as a broker fault.
     */
    @Override
    public String explainLoss(ConnectionSettings settings, Throwable failure) {
        for (Throwable cause : Failures.chain(failure)) {
            String message = String.valueOf(cause.getMessage());
            Matcher missed = MISSED_HEARTBEAT.matcher(message);
            if (missed.find()) {
                // The client gives up at its 9th read of a quarter heartbeat without data.
                return SilentNetwork.noData(Long.parseLong(missed.group(1)) * 9 * 1000 / 4);
            }
            Matcher refused = QUEUE_WITH_ARGUMENTS.matcher(message);
            if (refused.find()) {
                String reason = " (RabbitMQ: " + message.substring(refused.start()).replaceFirst(", class-id=.*", "") + ")";
                if (refused.group(1).equals("x-queue-type")) {
                    Matcher current = CURRENT_VALUE.matcher(message);
                    String type = current.find(refused.end()) ? current.group(1) : null;
                    return "queue '" + refused.group(2) + "' " + typeAdvice(type, BrokerUrls.queryOptions(settings.url()).get(QUEUE_TYPE)) + reason;
                }
                return "queue '" + refused.group(2) + "' was declared with the argument '" + refused.group(1) + "', and the rabbitmq provider's "
                        + "client declares each queue it uses without any but its type: set that by policy, or reach the queue through amqp" + reason;
            }
        }
        return null;
    }
}
