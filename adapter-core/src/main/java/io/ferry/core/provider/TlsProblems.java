package io.ferry.core.provider;

import java.security.cert.CertificateException;

import javax.net.ssl.SSLException;

/** Names the TLS problem behind a failure to connect, in one line, for any client that reports it somewhere in its causes. */
public final class TlsProblems {

    private TlsProblems() {
    }

    /** The TLS problem among the failure's causes, or null when there is none. */
    public static String explain(Throwable failure) {
        SSLException ssl = Failures.find(failure, SSLException.class);
        return ssl == null ? null : describe(ssl);
    }

    /** A failed handshake in words an operator acts on: the certificate is not trusted, or names another host. */
    public static String describe(SSLException e) {
        String detail = rootMessage(e);
        if (Failures.causedBy(e, CertificateException.class) || detail.contains("PKIX") || detail.contains("certificate")) {
            if (detail.contains("subject alternative") || detail.contains("No name matching")) {
                return "TLS handshake failed: the broker's certificate does not name this host (" + detail + ")";
            }
            return "TLS handshake failed: the broker's certificate is not trusted; check the trust store holds it or its CA ("
                    + detail + ")";
        }
        return "TLS handshake failed (a certificate or protocol mismatch with the broker's acceptor): " + detail;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : e.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
