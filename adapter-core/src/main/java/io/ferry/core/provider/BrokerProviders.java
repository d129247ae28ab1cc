package io.ferry.core.provider;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import jakarta.jms.ConnectionFactory;

/**
 * Every provider on the class path, by name, found through {@link ServiceLoader}: a jar lists its
 * providers in {@code META-INF/services/io.ferry.core.provider.BrokerProvider}.
 */
public final class BrokerProviders {

    private static final BrokerProviders ON_CLASS_PATH = new BrokerProviders(BrokerProviders.class.getClassLoader());

    private final Map<String, BrokerProvider> byName = new TreeMap<>();

    public BrokerProviders(ClassLoader classLoader) {
        for (BrokerProvider provider : ServiceLoader.load(BrokerProvider.class, classLoader)) {
            byName.putIfAbsent(provider.name(), provider);
        }
    }

    /** The providers on this class's own class path (Ferry's own, in the ferry jar). */
    public static BrokerProviders onClassPath() {
        return ON_CLASS_PATH;
    }

    public Iterable<String> names() {
        return byName.keySet();
    }

    /**
     * The provider the settings name.
     *
     * @throws InvalidConnectionException (setting {@code provider}) for a name no provider has
     */
    public BrokerProvider of(ConnectionSettings settings) {
        BrokerProvider provider = byName.get(settings.provider());
        if (provider == null) {
            throw new InvalidConnectionException("provider", "unknown provider '" + settings.provider() + "' (known: "
                    + String.join(", ", byName.keySet()) + ")");
        }
        return provider;
    }

    /** Finds the settings' provider and checks the settings with it, without connecting. */
    public BrokerProvider checked(ConnectionSettings settings) {
        BrokerProvider provider = of(settings);
        if (settings.factoryClass() != null && !provider.takesFactoryClass()) {
            // Not ignored: whoever wrote it means another client than the one that would connect.
            throw new InvalidConnectionException("class", "not used by the " + provider.name() + " provider, which connects to its url;"
                    + " a ConnectionFactory class of one's own is the connection-factory provider's");
        }
        provider.check(settings);
        // The client's factory, made once and let go: a constructor or a setter that refuses a value the type check let
        // through (an option the client's own URL parser refuses, say) is a start-up line, not a failure when channels start.
        try {
            ConnectionFactory trial = provider.connectionFactory(settings);
            if (trial instanceof AutoCloseable closeable) {
                closeable.close();
            }
        } catch (InvalidConnectionException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            // A LinkageError: a class the client needs is missing (a jar left out of the loader path) or failed to initialise.
            throw new InvalidConnectionException(settings.url() != null ? "url" : "class", "the " + provider.name()
                    + " client refuses these settings: " + BrokerUrls.masked(e.toString()), e);
        }
        return provider;
    }
}
