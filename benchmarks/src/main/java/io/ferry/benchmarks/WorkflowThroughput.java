package io.ferry.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.broker.BrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.core.Backoff;
import io.ferry.core.Service;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.jms.ConnectionSettings;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.profiling.TimingRegistry;
import io.ferry.workflow.AbstractWorkflow;
import io.ferry.workflow.PoolingWorkflow;
import io.ferry.workflow.ServiceFactories;
import io.ferry.workflow.StandardWorkflow;
import io.ferry.workflow.WorkflowSettings;

/**
 * Workflow throughput, side by side in one run: two embedded brokers (config/local-broker.xml and
 * config/remote-broker.xml on free loopback ports), messages preloaded on the local queue, the time
 * from a workflow's start until the remote queue holds them all. Cases run interleaved, once per
 * repetition each, and the median and spread of the repetitions are printed, with the ratios.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.ferry.benchmarks.WorkflowThroughput --runs 3</pre>
 */
@Command(name = "workflow-throughput", mixinStandardHelpOptions = true,
        description = "Measures workflow throughput: pool size 8 vs 1 with a 2 ms delay service, and events on vs off.")
public final class WorkflowThroughput implements Callable<Integer> {

    @Option(names = "--messages", defaultValue = "10000", description = "messages per case and run (default ${DEFAULT-VALUE})")
    int messages;

    @Option(names = "--size", defaultValue = "3072", description = "payload bytes (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--runs", defaultValue = "3", description = "repetitions; the median is reported (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--persistent", description = "send persistent messages (default: non-persistent)")
    boolean persistent;

    @Option(names = "--config-dir", defaultValue = "config", description = "where the broker XMLs are (default ${DEFAULT-VALUE})")
    Path configDir;

    private record Case(String name, String workflow, int poolSize, boolean delay, boolean events) {
    }

    private static final List<Case> CASES = List.of(
            new Case("pool-1-delay-2ms", "pooling", 1, true, false),
            new Case("pool-8-delay-2ms", "pooling", 8, true, false),
            new Case("standard-events-off", "standard", 1, false, false),
            new Case("standard-events-on", "standard", 1, false, true),
            new Case("pool-8-events-off", "pooling", 8, false, false),
            new Case("pool-8-events-on", "pooling", 8, false, true));

    private EmbeddedBroker local;
    private EmbeddedBroker remote;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WorkflowThroughput()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (messages < 1 || size < 1 || runs < 1) {
            System.err.println("workflow-throughput: --messages, --size and --runs must be positive");
            return 2;
        }
        Path data = Files.createTempDirectory("ferry-throughput");
        local = EmbeddedBroker.start(new BrokerSettings("local", configDir.resolve("local-broker.xml"), "127.0.0.1",
                EmbeddedBroker.freePort(), data.resolve("local")));
        remote = EmbeddedBroker.start(new BrokerSettings("remote", configDir.resolve("remote-broker.xml"), "127.0.0.1",
                EmbeddedBroker.freePort(), data.resolve("remote")));
        try {
            System.out.printf(Locale.ROOT, "%d x %d-byte %s messages per case, %d run(s), %d cores%n", messages, size,
                    persistent ? "persistent" : "non-persistent", runs, Runtime.getRuntime().availableProcessors());
            for (Case c : CASES) {
                run(c, Math.min(messages, 2_000)); // warm-up, not counted
            }
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            for (int r = 1; r <= runs; r++) {
                for (Case c : CASES) {
                    double rate = run(c, messages);
                    rates.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(rate);
                    System.out.printf(Locale.ROOT, "run %d  %-22s %9.0f msg/s%n", r, c.name(), rate);
                }
            }
            report(rates);
        } finally {
            local.close();
            remote.close();
        }
        return 0;
    }

    private double run(Case c, int count) throws Exception {
        local.purge("in");
        remote.purge("out");
        preload(count);
        TimingRegistry.global().reset();
        JmsEndpoints endpoints = new JmsEndpoints(ConnectionSettings.anonymous("local", local.url()), "in",
                ConnectionSettings.anonymous("remote", remote.url()), "out", "ferry.errors");
        LifecycleEventPublisher events = c.events()
                ? new LifecycleEventPublisher(ConnectionSettings.anonymous("events", local.url()), "ferry.events",
                        10_000, 100, Backoff.DEFAULT, TimingRegistry.global())
                : null;
        List<Service> services = c.delay()
                ? List.of(new ServiceFactories().create("delay", "delay-2ms", Map.of("delay", "2ms")))
                : List.of();
        WorkflowSettings settings = WorkflowSettings.of("bench", c.name()).withSendEvents(c.events());
        AbstractWorkflow workflow = c.workflow().equals("standard")
                ? new StandardWorkflow(settings, services, endpoints, events)
                : new PoolingWorkflow(settings, c.poolSize(), services, endpoints, events);
        long start = System.nanoTime();
        workflow.start();
        while (remote.messageCount("out") < count) {
            TimeUnit.MILLISECONDS.sleep(2);
        }
        long elapsed = System.nanoTime() - start;
        workflow.stop(Duration.ofSeconds(10));
        endpoints.close();
        if (events != null) {
            events.close();
        }
        if (remote.messageCount("out") != count) {
            throw new IllegalStateException(c.name() + ": " + remote.messageCount("out") + " arrived, expected " + count);
        }
        return count / (elapsed / 1e9);
    }

    private void preload(int count) throws JMSException {
        try (Connection connection = new ActiveMQConnectionFactory(local.url()).createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue("in"));
            producer.setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            byte[] payload = new byte[size];
            for (int i = 0; i < count; i++) {
                BytesMessage message = session.createBytesMessage();
                message.writeBytes(payload);
                message.setIntProperty("seq", i);
                producer.send(message);
                if (i % 500 == 499) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    private static void report(Map<String, List<Double>> rates) {
        System.out.printf(Locale.ROOT, "%n%-22s %12s %12s %12s%n", "case", "median msg/s", "min", "max");
        Map<String, Double> medians = new LinkedHashMap<>();
        rates.forEach((name, values) -> {
            List<Double> sorted = values.stream().sorted().toList();
            double median = sorted.get(sorted.size() / 2);
            medians.put(name, median);
            System.out.printf(Locale.ROOT, "%-22s %12.0f %12.0f %12.0f%n", name, median, sorted.get(0), sorted.get(sorted.size() - 1));
        });
        System.out.printf(Locale.ROOT, "%npool 8 / pool 1, 2 ms delay:        %.2fx (target >= 6)%n",
                medians.get("pool-8-delay-2ms") / medians.get("pool-1-delay-2ms"));
        System.out.printf(Locale.ROOT, "events on / off, StandardWorkflow:  %.3f (target >= 0.95)%n",
                medians.get("standard-events-on") / medians.get("standard-events-off"));
        System.out.printf(Locale.ROOT, "events on / off, pool 8:            %.3f (target >= 0.95)%n",
                medians.get("pool-8-events-on") / medians.get("pool-8-events-off"));
    }
}
