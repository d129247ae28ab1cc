package io.ferry.broker.testing;

import java.nio.file.Path;
import java.util.function.Consumer;

import org.apache.activemq.broker.BrokerService;

import io.ferry.broker.ClassicBroker;
import io.ferry.broker.ClassicBrokerSettings;
import io.ferry.broker.EmbeddedBroker;

/**
 * A real ActiveMQ Classic broker for tests: the project's config/activemq-broker.properties with its
 * OpenWire and AMQP connectors on free loopback ports and its own data directory. It can be stopped
 * and started again on the same ports and data, so fault tests see a restarted broker with its
 * persisted messages.
 */
public final class TestClassicBroker implements AutoCloseable {

    private final ClassicBrokerSettings settings;
    private final Consumer<BrokerService> adjustments;
    private ClassicBroker running;

    private TestClassicBroker(ClassicBrokerSettings settings, Consumer<BrokerService> adjustments) {
        this.settings = settings;
        this.adjustments = adjustments;
    }

    /** A broker named {@code name}, not yet started. */
    public static TestClassicBroker create(String name, Path dataDirectory) {
        return create(name, dataDirectory, service -> { });
    }

    /** A broker changed by {@code adjustments} at every start ({@link ClassicBroker#failing}, {@link ClassicBroker#blocking}). */
    public static TestClassicBroker create(String name, Path dataDirectory, Consumer<BrokerService> adjustments) {
        int openWirePort = EmbeddedBroker.freePort();
        int amqpPort = EmbeddedBroker.freePort();
        while (amqpPort == openWirePort) {
            amqpPort = EmbeddedBroker.freePort();
        }
        return new TestClassicBroker(ClassicBrokerSettings.load(ProjectDirectory.config("activemq-broker.properties"), dataDirectory)
                .withName(name).withHost("127.0.0.1").withOpenWirePort(openWirePort).withAmqpPort(amqpPort), adjustments);
    }

    public static TestClassicBroker started(String name, Path dataDirectory) {
        return create(name, dataDirectory).start();
    }

    public synchronized TestClassicBroker start() {
        if (running == null) {
            running = ClassicBroker.start(settings, adjustments);
        }
        return this;
    }

    public synchronized void stop() {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    public ClassicBrokerSettings settings() {
        return settings;
    }

    /** The OpenWire URL, for org.apache.activemq.ActiveMQConnectionFactory. */
    public String url() {
        return "tcp://" + settings.host() + ":" + settings.openWirePort();
    }

    /** The AMQP 1.0 URL, for Qpid JMS's JmsConnectionFactory. */
    public String amqpUrl() {
        return "amqp://" + settings.host() + ":" + settings.amqpPort();
    }

    public synchronized long messageCount(String queue) {
        return running().messageCount(queue);
    }

    public synchronized long memoryUsed(String queue) {
        return running().memoryUsed(queue);
    }

    public synchronized boolean isFull(String queue) {
        return running().isFull(queue);
    }

    public synchronized int consumerCount(String queue) {
        return running().consumerCount(queue);
    }

    @Override
    public void close() {
        stop();
    }

    private ClassicBroker running() {
        if (running == null) {
            throw new IllegalStateException("ActiveMQ Classic broker " + settings.name() + " is not running");
        }
        return running;
    }
}
