package io.ferry.provider.openwire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Set;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.apache.activemq.ActiveMQSslConnectionFactory;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerUrls;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.TlsProblems;

/**
 * Says what went wrong when an OpenWire TLS connection failed. ActiveMQ's client handshakes on its
 * first write, and a broker certificate it does not trust comes back only as "Connection or outbound
 * has closed" (the handshake's own exception stays on the transport's thread), so for an {@code ssl}
 * URL this repeats the handshake with the factory's trust and key stores and names the problem. Called
 * once per outage, never per message.
 */
final class OpenWireTlsDiagnosis {

    private static final int TIMEOUT_MILLIS = 5_000;

    private OpenWireTlsDiagnosis() {
    }

    /** One line naming the TLS problem of the settings' broker, or null when the URL is not TLS or the handshake succeeds. */
    static String explain(ConnectionSettings settings, Set<String> schemes, String example) {
        String url = settings.url();
        if (url == null || !url.toLowerCase(Locale.ROOT).contains("ssl://")) {
            return null;
        }
        BrokerUrls.Address address = BrokerUrls.check(url, schemes, true, example).get(0);
        Diagnosable factory = new Diagnosable(url);
        BeanProperties.apply(factory, settings.properties());
        SSLContext context;
        try {
            context = factory.sslContext();
        } catch (Exception e) {
            String reason = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            String keyStore = factory.getKeyStore();
            return "TLS: cannot read the trust store " + (factory.getTrustStore() != null ? factory.getTrustStore() : "of the JVM")
                    + (keyStore == null || keyStore.isBlank() ? "" : " or the key store " + keyStore) + " (" + reason
                    + "); check the trustStore* and keyStore* properties of the connection";
        }
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            // The client checks the host name unless the URL turns it off (socket.verifyHostName=false).
            if (!url.toLowerCase(Locale.ROOT).contains("verifyhostname=false")) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                socket.setSSLParameters(parameters);
            }
            socket.startHandshake();
            return null;
        } catch (SSLException e) {
            return TlsProblems.describe(e);
        } catch (IOException e) {
            // Not a TLS problem: the broker is not there, or not answering.
            return null;
        }
    }

    /** The client's own factory, for the key and trust managers it would make from its properties. */
    private static final class Diagnosable extends ActiveMQSslConnectionFactory {

        Diagnosable(String url) {
            super(url);
        }

        SSLContext sslContext() throws Exception {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(createKeyManager(), createTrustManager(), null);
            return context;
        }
    }
}
