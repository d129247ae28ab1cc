package io.ferry.provider.amqp;

import java.net.URI;
import java.util.Locale;
import java.util.Map;

import org.apache.qpid.jms.transports.TransportOptions;
import org.apache.qpid.jms.transports.TransportSupport;
import org.apache.qpid.jms.util.PropertyUtil;

/**
 * Says why an {@code amqps} connection failed where Qpid JMS does not: a trust or key store it cannot
 * read (no such file, a wrong password, another store type) fails inside its Netty pipeline, and all
 * the connection reports is {@code io.netty.channel.StacklessClosedChannelException}. This builds the
 * TLS context as the client does, from the URL's {@code transport.*} options, and names the store and
 * what is wrong with it. A failed handshake needs no help: Qpid reports its cause, which
 * {@link io.ferry.core.provider.TlsProblems} words. Called once per outage, never per message.
 */
final class AmqpTlsDiagnosis {

    private AmqpTlsDiagnosis() {
    }

    /** One line naming a trust or key store the client cannot read, or null (not TLS, or the stores are fine). */
    static String explain(String url) {
        if (url == null) {
            return null;
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("amqps://") && !lower.startsWith("amqpwss://")) {
            return null;
        }
        TransportOptions options = new TransportOptions();
        try {
            Map<String, String> query = PropertyUtil.parseQuery(new URI(url));
            PropertyUtil.setProperties(options, PropertyUtil.filterProperties(query, "transport."));
        } catch (Exception e) {
            return null; // the URL was checked at start-up; nothing to add here
        }
        if (options.isUseOpenSSL()) {
            return null; // OpenSSL reads the stores its own way
        }
        try {
            TransportSupport.createJdkSslContext(options);
            return null;
        } catch (Exception e) {
            String reason = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            String keyStore = options.getKeyStoreLocation();
            return "TLS: cannot read the trust store " + location(options.getTrustStoreLocation())
                    + (keyStore == null || keyStore.isBlank() ? "" : " or the key store " + keyStore) + " (" + reason
                    + "); check the transport.trustStore* and transport.keyStore* options of the URL";
        }
    }

    private static String location(String path) {
        return path == null || path.isBlank() ? "of the JVM" : path;
    }
}
