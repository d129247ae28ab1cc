package io.ferry.provider.artemis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import jakarta.jms.JMSException;

import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.remoting.impl.ssl.SSLSupport;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.utils.ConfigurationHelper;

import io.ferry.core.provider.Failures;
import io.ferry.core.provider.TlsProblems;

/**
 * Says what went wrong when a TLS connection to a broker failed. Artemis reports a failed handshake
 * only as "Failed to create session factory" (the certificate error goes to its own log), so for a
 * URL with {@code sslEnabled=true} this repeats the handshake with the URL's trust and key stores
 * and names the problem: an untrusted certificate, a host name the certificate does not cover, a
 * truststore that cannot be read. Called once per outage, never per message.
 */
final class TlsDiagnosis {

    private static final int TIMEOUT_MILLIS = 5_000;

    private TlsDiagnosis() {
    }

    /** One line naming the TLS problem behind the failure, or null when TLS is not off or not the cause. */
    static String explain(ActiveMQConnectionFactory factory, JMSException failure) {
        SSLException ssl = Failures.find(failure, SSLException.class);
        if (ssl != null) {
            return TlsProblems.describe(ssl);
        }
        TransportConfiguration[] connectors = factory.getStaticConnectors();
        if (connectors == null || connectors.length == 0) {
            return null;
        }
        Map<String, Object> params = connectors[0].getParams();
        if (!ConfigurationHelper.getBooleanProperty(TransportConstants.SSL_ENABLED_PROP_NAME, false, params)) {
            return null;
        }
        SSLContext context;
        try {
            context = sslSupport(params).createContext();
        } catch (Exception e) {
            return "TLS: cannot read the trust or key store ("
                    + ConfigurationHelper.getStringProperty(TransportConstants.TRUSTSTORE_PATH_PROP_NAME, "no trustStorePath", params)
                    + "): " + e.getMessage();
        }
        String host = ConfigurationHelper.getStringProperty(TransportConstants.HOST_PROP_NAME, "localhost", params);
        int port = ConfigurationHelper.getIntProperty(TransportConstants.PORT_PROP_NAME, 61616, params);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            if (ConfigurationHelper.getBooleanProperty(TransportConstants.VERIFY_HOST_PROP_NAME, false, params)) {
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

    private static SSLSupport sslSupport(Map<String, Object> params) {
        return new SSLSupport()
                .setTruststorePath(string(params, TransportConstants.TRUSTSTORE_PATH_PROP_NAME, TransportConstants.DEFAULT_TRUSTSTORE_PATH))
                .setTruststorePassword(string(params, TransportConstants.TRUSTSTORE_PASSWORD_PROP_NAME, TransportConstants.DEFAULT_TRUSTSTORE_PASSWORD))
                .setTruststoreType(string(params, TransportConstants.TRUSTSTORE_TYPE_PROP_NAME, TransportConstants.DEFAULT_TRUSTSTORE_TYPE))
                .setTruststoreProvider(string(params, TransportConstants.TRUSTSTORE_PROVIDER_PROP_NAME, TransportConstants.DEFAULT_TRUSTSTORE_PROVIDER))
                .setKeystorePath(string(params, TransportConstants.KEYSTORE_PATH_PROP_NAME, TransportConstants.DEFAULT_KEYSTORE_PATH))
                .setKeystorePassword(string(params, TransportConstants.KEYSTORE_PASSWORD_PROP_NAME, TransportConstants.DEFAULT_KEYSTORE_PASSWORD))
                .setKeystoreType(string(params, TransportConstants.KEYSTORE_TYPE_PROP_NAME, TransportConstants.DEFAULT_KEYSTORE_TYPE))
                .setKeystoreProvider(string(params, TransportConstants.KEYSTORE_PROVIDER_PROP_NAME, TransportConstants.DEFAULT_KEYSTORE_PROVIDER));
    }

    private static String string(Map<String, Object> params, String name, String fallback) {
        return ConfigurationHelper.getStringProperty(name, fallback, params);
    }
}
