package io.ferry.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.BrokerStartException;
import io.ferry.broker.ClassicBroker;
import io.ferry.broker.ClassicBrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.process.ReadySignal;

/**
 * {@code ferry broker --name local|remote [--kind artemis|activemq]}: an embedded Artemis or ActiveMQ
 * Classic broker until Ctrl-C or SIGTERM.
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Starts an embedded broker and runs it until Ctrl-C or SIGTERM: Artemis from config/<name>-broker.xml,"
                + " or with --kind activemq ActiveMQ Classic (OpenWire and AMQP 1.0) from config/activemq-broker.properties.")
final class BrokerCommand implements Callable<Integer> {

    enum Name { LOCAL, REMOTE }

    enum Kind { ARTEMIS, ACTIVEMQ }

    @Option(names = "--name", required = true,
            description = "local or remote: the broker's name and data directory, and for Artemis its configuration"
                    + " (local on port 61616, remote on 61617)")
    Name name;

    @Option(names = "--kind", description = "artemis (default) or activemq (ActiveMQ Classic: OpenWire on 61618, AMQP 1.0 on 5673)")
    Kind kind = Kind.ARTEMIS;

    @Option(names = "--data", description = "data directory (default: target/brokers/<name>, with --kind activemq target/brokers/activemq-<name>)")
    Path data;

    @Option(names = "--config", description = "broker.xml to use (default: config/<name>-broker.xml), with one acceptor "
            + "(several protocols on it), or with --kind activemq its properties file (default: config/activemq-broker.properties)")
    Path config;

    @Option(names = "--port", description = "listen on this port instead of the configuration's (activemq: the OpenWire port)")
    Integer port;

    @Option(names = "--amqp-port", description = "activemq only: the AMQP 1.0 port instead of the configuration's, 0 for none")
    Integer amqpPort;

    @Override
    public Integer call() throws InterruptedException {
        if (kind == Kind.ARTEMIS && amqpPort != null) {
            System.err.println("ferry broker: --amqp-port is for --kind activemq; Artemis serves AMQP 1.0 on its one port (--port)");
            return ExitCodes.BAD_INPUT;
        }
        String brokerName = name.name().toLowerCase(Locale.ROOT);
        // Each kind in a directory of its own: an Artemis and an ActiveMQ Classic broker of one name may run side by side.
        Path dataDirectory = data != null ? data : Path.of("target", "brokers", kind == Kind.ACTIVEMQ ? "activemq-" + brokerName : brokerName);
        Running broker;
        try {
            broker = kind == Kind.ARTEMIS ? artemis(brokerName, dataDirectory) : activeMq(brokerName, dataDirectory);
        } catch (BrokerStartException e) {
            System.err.println("ferry broker: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            System.err.println("ferry broker: " + e.getMessage()); // a setting out of range: a port, say
            return ExitCodes.BAD_INPUT;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.shutdown().run();
            stopped.countDown();
        }, "ferry-broker-shutdown"));
        System.out.println("ferry broker " + brokerName + ": " + broker.listening() + " (Ctrl-C to stop)");
        ReadySignal.announce(ReadySignal.Part.BROKER, broker.url());
        stopped.await();
        return 0;
    }

    /** A started broker as this command sees it: where it listens and how to stop it. */
    private record Running(String url, String listening, Runnable shutdown) {
    }

    private Running artemis(String brokerName, Path dataDirectory) {
        Path brokerXml = config != null ? config : Path.of("config", brokerName + "-broker.xml");
        EmbeddedBroker broker = EmbeddedBroker.start(new BrokerSettings(brokerName, brokerXml, null, port, dataDirectory));
        return new Running(broker.url(), "listening on " + broker.url(), broker::close);
    }

    private Running activeMq(String brokerName, Path dataDirectory) {
        Path file = config != null ? config : Path.of("config", "activemq-broker.properties");
        ClassicBrokerSettings settings = ClassicBrokerSettings.load(file, dataDirectory).withName(brokerName);
        if (port != null) {
            settings = settings.withOpenWirePort(port);
        }
        if (amqpPort != null) {
            settings = settings.withAmqpPort(amqpPort);
        }
        ClassicBroker broker = ClassicBroker.start(settings);
        String listening = "ActiveMQ Classic listening on " + broker.url() + broker.amqpUrl().map(amqp -> " and " + amqp).orElse("");
        return new Running(broker.url(), listening, broker::close);
    }
}
