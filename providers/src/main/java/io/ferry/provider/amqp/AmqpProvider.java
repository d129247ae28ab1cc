package io.ferry.provider.amqp;

import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import org.apache.qpid.jms.JmsConnection;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.apache.qpid.jms.JmsSendTimedOutException;
import org.apache.qpid.jms.provider.Provider;
import org.apache.qpid.jms.provider.ProviderFactory;
import org.apache.qpid.jms.provider.exceptions.ProviderConnectionRemotelyClosedException;
import org.apache.qpid.jms.provider.exceptions.ProviderIdleTimeoutException;
import org.apache.qpid.jms.transports.TransportOptions;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.Failures;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.SilentNetwork;
import io.ferry.core.provider.TlsProblems;

/**
 * Any AMQP 1.0 broker, through Apache Qpid JMS: {@code amqp://host:5672?...} or {@code amqps://} with
 * {@code transport.trustStoreLocation} and {@code transport.trustStorePassword}. One broker per URL:
 * Qpid's {@code failover:} would reconnect inside the client, and Ferry reconnects itself.
 *
 * <p>Unless the URL sets them, a request (a commit, say) times out after {@value #REQUEST_TIMEOUT_MS} ms
 * rather than waiting for ever, a send held without credit (a full target) after {@value #SEND_TIMEOUT_MS} ms, and receives wait only for what the broker pushed ahead
 * ({@code jms.receiveLocalOnly}): a receive that drains the broker crashes RabbitMQ's AMQP 1.0 plugin
 * (3.10) on an empty queue. Property names are not checked against JMS's identifier rules
 * ({@code jms.validatePropertyNames=false}): AMQP carries any name, and with the check on Qpid hides such a
 * property of a received message, which would drop it silently. A broker without AMQP transactions
 * (RabbitMQ's plugin) needs {@code transactions: false} on the connection.
 */
public final class AmqpProvider implements BrokerProvider {

    public static final String NAME = "amqp";
    static final int REQUEST_TIMEOUT_MS = 30_000;
    /** How long a send waits for credit, or for the broker's answer where it waits for one, before it fails. */
    static final int SEND_TIMEOUT_MS = 30_000;
    /**
     * Silence from the broker for this long (its heartbeats included, which it then sends well within it) fails the
     * connection: Qpid's own default, a minute, would hold a batch that long on a network gone silent.
     */
    static final int IDLE_TIMEOUT_MS = 3_000;
    private static final String IDLE_TIMEOUT = "amqp.idleTimeout";
    /** What Qpid JMS says when a send timed out waiting for credit. */
    private static final String NO_CREDIT = "waiting for credit";
    private static final Set<String> SCHEMES = Set.of("amqp", "amqps", "amqpws", "amqpwss");
    private static final String EXAMPLE = "amqp://127.0.0.1:5672";
    /** The presettle policy's options that settle a producer's sends outside a transaction as they are sent. */
    private static final List<String> PRESETTLE_OPTIONS = List.of("jms.presettlePolicy.presettleAll",
            "jms.presettlePolicy.presettleProducers", "jms.presettlePolicy.presettleQueueProducers",
            "jms.presettlePolicy.presettleTopicProducers");
    private static final Map<String, String> DEFAULT_OPTIONS = defaultOptions();
    /** The prefixes of the options Qpid JMS reads from a URL (the failover ones aside, refused with failover:). */
    private static final List<String> OPTION_PREFIXES = List.of("jms.", "amqp.", "transport.", "provider.", "sasl.options.");
    /** Where Qpid sets the options under a prefix: bean properties, each of a type. */
    private static final Map<String, Class<?>> OPTION_BEANS = Map.of("jms.", JmsConnectionFactory.class,
            "amqp.", org.apache.qpid.jms.provider.amqp.AmqpProvider.class, "transport.", TransportOptions.class);
    /** How Qpid lists the options it could not set: "Unused parameters=[{name=value, ...}]". */
    private static final Pattern UNUSED = Pattern.compile("Unused parameters=\\[\\{([^}]*)}]");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void check(ConnectionSettings settings) {
        String url = settings.url();
        if (url != null && url.toLowerCase(Locale.ROOT).startsWith("failover:")) {
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': give one broker's URL; failover: reconnects inside "
                    + "the client, and Ferry reconnects by itself");
        }
        BrokerUrls.check(url, SCHEMES, false, EXAMPLE);
        checkOptions(settings);
        String full = withDefaults(url);
        try {
            new JmsConnectionFactory(full); // the jms.* options
            Provider provider = ProviderFactory.create(new URI(full)); // the amqp.* and transport.* options, no connection yet
            provider.close();
        } catch (Exception e) {
            // Qpid's words may quote the URL: its passwords masked there too.
            throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': "
                    + BrokerUrls.masked(namesOnly(String.valueOf(e.getMessage()).strip())), e);
        }
        BeanProperties.check(JmsConnectionFactory.class, settings.properties());
    }

    /** Qpid's refusal with the options it could not set named, not their values: a value may be a secret. */
    private static String namesOnly(String refusal) {
        Matcher unused = UNUSED.matcher(refusal);
        if (!unused.find()) {
            return refusal;
        }
        String names = String.join(", ", Arrays.stream(unused.group(1).split(", ")).map(option -> option.split("=", 2)[0]).toList());
        return refusal.substring(0, unused.start(1)) + names + refusal.substring(unused.end(1));
    }

    /**
     * What Qpid would not say: it reads only the options under its prefixes and leaves the others unread, and it reads a
     * flag with anything but "true" as false (so {@code transport.verifyHost=yes} would turn host verification off). So an
     * option under no prefix is refused, and a number's or a flag's value checked against the type its setter takes.
     */
    private static void checkOptions(ConnectionSettings settings) {
        for (Map.Entry<String, String> option : BrokerUrls.queryOptions(settings.url()).entrySet()) {
            String name = option.getKey();
            String prefix = OPTION_PREFIXES.stream().filter(name::startsWith).findFirst().orElse(null);
            if (prefix == null) {
                throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name + "' is not read by the amqp "
                        + "client, whose options begin " + String.join(", ", OPTION_PREFIXES));
            }
            Class<?> bean = OPTION_BEANS.get(prefix);
            Class<?> type = bean == null ? null : BeanProperties.propertyType(bean, name.substring(prefix.length()));
            if (type != null && (type.isPrimitive() || type == Boolean.class || Number.class.isAssignableFrom(type))) {
                try {
                    BeanProperties.checkType("url", option.getValue(), type);
                } catch (InvalidConnectionException e) {
                    throw new InvalidConnectionException("url", "'" + settings.maskedUrl() + "': option '" + name + "': " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Qpid JMS waits for the broker's answer to a persistent send outside a transaction unless told to send without it
     * ({@code forceAsyncSend}, which {@code forceSyncSend} overrules), or to settle what producers send as they send it
     * (a presettle policy, which nothing overrules). Read on the safe side: a value other than the one that keeps sends
     * waited for counts as the other.
     */
    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        // A presettle policy is set in the URL only (it is no bean property of the factory's).
        boolean presettled = !PRESETTLE_OPTIONS.stream().allMatch(option -> settings.optionUnsetOr(option, option, "false"));
        boolean confirmsSends = !presettled && ("true".equalsIgnoreCase(settings.option("jms.forceSyncSend", "forceSyncSend"))
                || settings.optionUnsetOr("jms.forceAsyncSend", "forceAsyncSend", "false"));
        return new Capabilities(settings.transacted(), true, true, false, true, confirmsSends);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        JmsConnectionFactory factory = new JmsConnectionFactory(withDefaults(settings.url()));
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    /**
     * Refused as full ({@code amqp:resource-limit-exceeded} on a send: a {@code ResourceAllocationException}), or held:
     * the broker gave the sender no credit for {@value #SEND_TIMEOUT_MS} ms, AMQP's flow control, which Artemis applies
     * to a full address whatever its policy. Qpid JMS tells that timeout from one waiting for the broker's answer to a
     * sent message (a slow broker, or a silent network) only by its message.
     */
    @Override
    public boolean isFull(Throwable failure) {
        if (Failures.causedBy(failure, ProviderConnectionRemotelyClosedException.class)) {
            return false; // the broker closed the whole connection (one "resource-limit-exceeded" too): a lost connection
        }
        if (BrokerProvider.super.isFull(failure)) {
            return true;
        }
        JmsSendTimedOutException timedOut = Failures.find(failure, JmsSendTimedOutException.class);
        return timedOut != null && String.valueOf(timedOut.getMessage()).contains(NO_CREDIT);
    }

    /**
     * Qpid JMS tells the listener of a send it did not wait for (in a transaction, or a non-persistent one) that the
     * broker refused as full or that timed out: the connection goes on unless Qpid says it failed. Anything else it
     * reports there (a session or consumer the broker closed, say) gives the connection up, so that it is opened anew.
     */
    @Override
    public boolean connectionFailed(Connection connection, JMSException reported) {
        boolean sendFailed = isFull(reported) || Failures.causedBy(reported, JmsSendTimedOutException.class);
        return !sendFailed || !(connection instanceof JmsConnection qpid) || qpid.isFailed() || qpid.isClosed();
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        String explained = TlsProblems.explain(failure);
        return explained != null ? explained : AmqpTlsDiagnosis.explain(settings.url());
    }

    /** Qpid says "Transport closed due to the peer exceeding our requested idle-timeout", which names no cause. */
    @Override
    public String explainLoss(ConnectionSettings settings, Throwable failure) {
        if (!Failures.causedBy(failure, ProviderIdleTimeoutException.class)) {
            return null;
        }
        String written = BrokerUrls.option(settings.url(), IDLE_TIMEOUT);
        return SilentNetwork.noData(written != null && written.matches("\\d+") ? Long.parseLong(written) : IDLE_TIMEOUT_MS);
    }

    /** The URL with Ferry's defaults for every option it does not set itself. */
    static String withDefaults(String url) {
        return BrokerUrls.withDefaults(url, DEFAULT_OPTIONS);
    }

    private static Map<String, String> defaultOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(IDLE_TIMEOUT, Integer.toString(IDLE_TIMEOUT_MS));
        options.put("transport.connectTimeout", Integer.toString(SilentNetwork.CONNECT_TIMEOUT_MS));
        options.put("jms.requestTimeout", Integer.toString(REQUEST_TIMEOUT_MS));
        options.put("jms.sendTimeout", Integer.toString(SEND_TIMEOUT_MS));
        options.put("jms.receiveLocalOnly", "true");
        options.put("jms.receiveNoWaitLocalOnly", "true");
        // AMQP takes any property name; with its check on, Qpid leaves a name that is not a JMS identifier (has-dash,
        // from an OpenWire sender) out of getPropertyNames(), so a source message would lose it without a word.
        options.put("jms.validatePropertyNames", "false");
        return options;
    }
}
