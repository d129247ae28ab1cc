package io.ferry.broker.testing;

import java.nio.file.Path;
import java.util.function.Consumer;

import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.spi.core.security.ActiveMQSecurityManager;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.EmbeddedBroker;

/**
 * A real broker for tests: the project's config/&lt;name&gt;-broker.xml on a free loopback port with its
 * own data directory. It can be stopped and started again on the same port and data, so fault tests
 * see a restarted broker with its persisted messages.
 */
public final class TestBroker implements AutoCloseable {

    private final BrokerSettings settings;
    private final Consumer<Configuration> adjustments;
    private final ActiveMQSecurityManager users;
    private EmbeddedBroker running;

    private TestBroker(BrokerSettings settings, Consumer<Configuration> adjustments, ActiveMQSecurityManager users) {
        this.settings = settings;
        this.adjustments = adjustments;
        this.users = users;
    }

    /** A broker from config/&lt;name&gt;-broker.xml ("local" or "remote"), not yet started. */
    public static TestBroker create(String name, Path dataDirectory) {
        return create(name, dataDirectory, configuration -> { });
    }

    /** The same, its configuration changed before every start (e.g. {@link EmbeddedBroker#paging}). */
    public static TestBroker create(String name, Path dataDirectory, Consumer<Configuration> adjustments) {
        return create(name, dataDirectory, adjustments, null);
    }

    /** The same, with its users and their roles kept by {@code users} (security enabled by {@code adjustments}). */
    public static TestBroker create(String name, Path dataDirectory, Consumer<Configuration> adjustments, ActiveMQSecurityManager users) {
        return new TestBroker(new BrokerSettings(name, ProjectDirectory.config(name + "-broker.xml"),
                "127.0.0.1", EmbeddedBroker.freePort(), dataDirectory), adjustments, users);
    }

    public static TestBroker started(String name, Path dataDirectory) {
        return create(name, dataDirectory).start();
    }

    public synchronized TestBroker start() {
        if (running == null) {
            running = EmbeddedBroker.start(settings, adjustments, users);
        }
        return this;
    }

    public synchronized void stop() {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    public String url() {
        return "tcp://" + settings.host() + ":" + settings.port();
    }

    public synchronized long messageCount(String queue) {
        if (running == null) {
            throw new IllegalStateException("broker " + settings.name() + " is not running");
        }
        return running.messageCount(queue);
    }

    public synchronized int consumerCount(String queue) {
        if (running == null) {
            throw new IllegalStateException("broker " + settings.name() + " is not running");
        }
        return running.consumerCount(queue);
    }

    /** The running broker, for what only a test asks of it (its paging and disk state). */
    public synchronized EmbeddedBroker running() {
        if (running == null) {
            throw new IllegalStateException("broker " + settings.name() + " is not running");
        }
        return running;
    }

    @Override
    public void close() {
        stop();
    }
}
