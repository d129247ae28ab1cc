package io.ferry.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.BrokerStartException;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.process.ReadySignal;

/** {@code ferry broker --name local|remote}: an embedded Artemis broker until Ctrl-C or SIGTERM. */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Starts an embedded Artemis broker from config/<name>-broker.xml and runs it until Ctrl-C or SIGTERM.")
final class BrokerCommand implements Callable<Integer> {

    enum Name { LOCAL, REMOTE }

    @Option(names = "--name", required = true, description = "local (port 61616) or remote (port 61617)")
    Name name;

    @Option(names = "--data", description = "data directory (default: target/brokers/<name>)")
    Path data;

    @Option(names = "--config", description = "broker.xml to use (default: config/<name>-broker.xml)")
    Path config;

    @Option(names = "--port", description = "listen on this port instead of the configuration's")
    Integer port;

    @Override
    public Integer call() throws InterruptedException {
        String brokerName = name.name().toLowerCase(Locale.ROOT);
        Path brokerXml = config != null ? config : Path.of("config", brokerName + "-broker.xml");
        Path dataDirectory = data != null ? data : Path.of("target", "brokers", brokerName);
        EmbeddedBroker broker;
        try {
            broker = EmbeddedBroker.start(new BrokerSettings(brokerName, brokerXml, null, port, dataDirectory));
        } catch (BrokerStartException | IllegalArgumentException e) {
            System.err.println("ferry broker: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            stopped.countDown();
        }, "ferry-broker-shutdown"));
        System.out.println("ferry broker " + brokerName + ": listening on " + broker.url() + " (Ctrl-C to stop)");
        ReadySignal.announce(ReadySignal.Part.BROKER, broker.url());
        stopped.await();
        return 0;
    }
}
