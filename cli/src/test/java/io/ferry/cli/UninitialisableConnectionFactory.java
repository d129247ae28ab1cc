package io.ferry.cli;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;

/** A factory whose class fails to initialise, as a client's does when a jar it needs was left out: BadConnectionSettingsTest. */
public class UninitialisableConnectionFactory implements ConnectionFactory {

    private static final Object NEEDED = missing();

    private static Object missing() {
        throw new IllegalStateException("com.example.Missing is not on the class path");
    }

    @Override
    public Connection createConnection() {
        throw new UnsupportedOperationException(String.valueOf(NEEDED));
    }

    @Override
    public Connection createConnection(String userName, String password) {
        throw new UnsupportedOperationException();
    }

    @Override
    public JMSContext createContext() {
        throw new UnsupportedOperationException();
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        throw new UnsupportedOperationException();
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        throw new UnsupportedOperationException();
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        throw new UnsupportedOperationException();
    }
}
