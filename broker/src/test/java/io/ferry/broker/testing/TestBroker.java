package io.ferry.broker.testing;

import java.nio.file.Path;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.EmbeddedBroker;

/**
 * A real broker for tests: the project's config/&lt;name&gt;-broker.xml on a free loopback port with its
 * own data directory. It can be stopped and started again on the same port and data, so fault tests
 * see a restarted broker with its persisted messages.
 */
public final class TestBroker implements AutoCloseable {

    private final BrokerSettings settings;
    private EmbeddedBroker running;

    private TestBroker(BrokerSettings settings) {
        this.settings = settings;
    }

    /** A broker from config/&lt;name&gt;-broker.xml ("local" or "remote"), not yet started. */
    public static TestBroker create(String name, Path dataDirectory) {
        return new TestBroker(new BrokerSettings(name, ProjectDirectory.config(name + "-broker.xml"),
                "127.0.0.1", EmbeddedBroker.freePort(), dataDirectory));
    }

    public static TestBroker started(String name, Path dataDirectory) {
        return create(name, dataDirectory).start();
    }

    public synchronized TestBroker start() {
        if (running == null) {
            running = EmbeddedBroker.start(settings);
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

    @Override
    public void close() {
        stop();
    }
}
