package io.ferry.provider.factory;

import java.lang.reflect.InvocationTargetException;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import io.ferry.core.provider.BeanProperties;
import io.ferry.core.provider.BrokerProvider;
import io.ferry.core.provider.Capabilities;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.provider.InvalidConnectionException;
import io.ferry.core.provider.TlsProblems;

/**
 * Any JMS 2 client, by its {@code jakarta.jms.ConnectionFactory} class ({@code class:}) and that class's
 * bean properties ({@code properties:}): IBM MQ, TIBCO EMS, Solace and the rest. The class is looked
 * up on the class path and the loader path ({@code -Dloader.path=plugins/}, through the thread's context
 * class loader, which the bridge sets to it). Ferry cannot tell whether such a client reconnects by
 * itself: configure it not to (its documentation says how), so a worker sees a lost broker at once.
 */
public final class ConnectionFactoryProvider implements BrokerProvider {

    public static final String NAME = "connection-factory";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean takesFactoryClass() {
        return true;
    }

    @Override
    public void check(ConnectionSettings settings) {
        if (settings.url() != null) {
            throw new InvalidConnectionException("url", "not used by the connection-factory provider, whose factory's own "
                    + "properties name the broker");
        }
        BeanProperties.check(factoryClass(settings), settings.properties());
    }

    @Override
    public Capabilities capabilities(ConnectionSettings settings) {
        return new Capabilities(settings.transacted(), true, true, false, true, true);
    }

    @Override
    public ConnectionFactory connectionFactory(ConnectionSettings settings) {
        Class<? extends ConnectionFactory> type = factoryClass(settings);
        ConnectionFactory factory;
        try {
            factory = type.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new InvalidConnectionException("class", type.getName() + " cannot be made: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidConnectionException("class", type.getName() + " has no public constructor without arguments");
        } catch (LinkageError e) {
            // NoClassDefFoundError names the missing class; ExceptionInInitializerError's cause says why it failed.
            Throwable why = e.getCause() != null ? e.getCause() : e;
            throw new InvalidConnectionException("class", type.getName() + " cannot be made: a class it needs is missing or failed to "
                    + "initialise (" + why + "): put the client's other jars on the loader path too", e);
        }
        BeanProperties.apply(factory, settings.properties());
        return factory;
    }

    @Override
    public String explain(ConnectionSettings settings, JMSException failure) {
        return TlsProblems.explain(failure);
    }

    private static Class<? extends ConnectionFactory> factoryClass(ConnectionSettings settings) {
        String name = settings.factoryClass();
        if (name == null) {
            throw new InvalidConnectionException("class", "missing: the connection-factory provider needs the "
                    + "jakarta.jms.ConnectionFactory class to make, e.g. com.ibm.mq.jakarta.jms.MQConnectionFactory");
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Class<?> type;
        try {
            type = Class.forName(name, false, loader != null ? loader : ConnectionFactoryProvider.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new InvalidConnectionException("class", "'" + name + "' not found on the class path or the loader path "
                    + "(-Dloader.path=plugins/ with the client's jars)");
        }
        if (!ConnectionFactory.class.isAssignableFrom(type)) {
            throw new InvalidConnectionException("class", name + " is not a jakarta.jms.ConnectionFactory");
        }
        return type.asSubclass(ConnectionFactory.class);
    }
}
