package io.ferry.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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

import io.ferry.api.Service;
import io.ferry.broker.BrokerSettings;
import io.ferry.broker.EmbeddedBroker;
import io.ferry.core.Backoff;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.jms.JmsDestination;
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
        description = "Measures workflow throughput: pool size 8 vs 1 with a 2 ms delay service, events on vs off, messages unread vs read.")
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

    @Option(names = "--cases", split = ",", description = "which comparisons: pooling, events, unread (default: all)")
    List<String> comparisons = List.of("pooling", "events", "unread");

    /** One run's outcome: throughput, and CPU time of the whole process (brokers included) per message. */
    private record Result(double rate, double cpuMicrosPerMessage) {
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    /** @param read the messages are read into Ferry's form and rebuilt, as with services, though there are none */
    private record Case(String comparison, String name, String workflow, int poolSize, boolean delay, boolean events, boolean read) {
    }

    // Events are measured without services: a pooling workflow without services runs no pool, so it would repeat these.
    // "unread": without services messages go from one Artemis client to the other unread; read, as a service would need them.
    private static final List<Case> CASES = List.of(
            new Case("pooling", "pool-1-delay-2ms", "pooling", 1, true, false, true),
            new Case("pooling", "pool-8-delay-2ms", "pooling", 8, true, false, true),
            new Case("events", "standard-events-off", "standard", 1, false, false, false),
            new Case("events", "standard-events-on", "standard", 1, false, true, false),
            new Case("unread", "standard-unread", "standard", 1, false, false, false),
            new Case("unread", "standard-read", "standard", 1, false, false, true));

    private EmbeddedBroker local;
    private EmbeddedBroker remote;
    /** One publisher for the whole program, as the adapter has one for all its channels. */
    private LifecycleEventPublisher events;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WorkflowThroughput()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (messages < 1 || size < 1 || runs < 1) {
            System.err.println("workflow-throughput: --messages, --size and --runs must be positive");
            return 2;
        }
        List<Case> cases = CASES.stream().filter(c -> comparisons.contains(c.comparison())).toList();
        if (cases.isEmpty()) {
            System.err.println("workflow-throughput: --cases takes pooling, events and/or unread");
            return 2;
        }
        Path data = Files.createTempDirectory("ferry-throughput");
        local = EmbeddedBroker.start(new BrokerSettings("local", configDir.resolve("local-broker.xml"), "127.0.0.1",
                EmbeddedBroker.freePort(), data.resolve("local")));
        remote = EmbeddedBroker.start(new BrokerSettings("remote", configDir.resolve("remote-broker.xml"), "127.0.0.1",
                EmbeddedBroker.freePort(), data.resolve("remote")));
        events = new LifecycleEventPublisher(ConnectionSettings.anonymous("events", local.url()),
                LifecycleEventPublisher.Settings.defaults("ferry.events"), TimingRegistry.global());
        try {
            System.out.printf(Locale.ROOT, "%d x %d-byte %s messages per case, %d run(s), %d cores%n", messages, size,
                    persistent ? "persistent" : "non-persistent", runs, Runtime.getRuntime().availableProcessors());
            for (Case c : cases) {
                run(c, Math.min(messages, 2_000)); // warm-up, not counted
            }
            Map<String, List<Result>> results = new LinkedHashMap<>();
            for (int r = 1; r <= runs; r++) {
                // Every other run goes backwards (A B C D, D C B A, ...), so drift hits all cases alike.
                List<Case> order = new ArrayList<>(cases);
                if (r % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Case c : order) {
                    Result result = run(c, messages);
                    results.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(result);
                    System.out.printf(Locale.ROOT, "run %d  %-22s %9.0f msg/s %8.1f us CPU/msg%n", r, c.name(),
                            result.rate(), result.cpuMicrosPerMessage());
                }
            }
            report(results);
        } finally {
            events.close();
            local.close();
            remote.close();
        }
        return 0;
    }

    private Result run(Case c, int count) throws Exception {
        local.purge("in");
        remote.purge("out");
        preload(count);
        TimingRegistry.global().reset();
        List<Service> services = c.delay()
                ? List.of(new ServiceFactories().create("delay", "delay-2ms", Map.of("delay", "2ms")))
                : List.of();
        JmsEndpoints endpoints = new JmsEndpoints(ConnectionSettings.anonymous("local", local.url()), JmsDestination.queue("in"),
                ConnectionSettings.anonymous("remote", remote.url()), JmsDestination.queue("out"), "ferry.errors", c.read() || !services.isEmpty(),
                Backoff.DEFAULT);
        WorkflowSettings settings = WorkflowSettings.of("bench", c.name()).withSendEvents(c.events());
        AbstractWorkflow workflow = c.workflow().equals("standard")
                ? new StandardWorkflow(settings, services, endpoints, events)
                : new PoolingWorkflow(settings, c.poolSize(), services, endpoints, events);
        long cpuStart = OS.getProcessCpuTime();
        long start = System.nanoTime();
        workflow.start();
        while (remote.messageCount("out") < count) {
            TimeUnit.MILLISECONDS.sleep(2);
        }
        long elapsed = System.nanoTime() - start;
        long cpu = OS.getProcessCpuTime() - cpuStart;
        workflow.stop(Duration.ofSeconds(10));
        endpoints.close();
        if (remote.messageCount("out") != count) {
            throw new IllegalStateException(c.name() + ": " + remote.messageCount("out") + " arrived, expected " + count);
        }
        return new Result(count / (elapsed / 1e9), cpu / 1e3 / count);
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

    private static void report(Map<String, List<Result>> results) {
        System.out.printf(Locale.ROOT, "%n%-22s %12s %9s %9s %14s%n", "case", "median msg/s", "min", "max", "median us CPU/msg");
        Map<String, Double> rates = new LinkedHashMap<>();
        Map<String, Double> cpu = new LinkedHashMap<>();
        results.forEach((name, values) -> {
            List<Double> sorted = values.stream().map(Result::rate).sorted().toList();
            rates.put(name, median(sorted));
            cpu.put(name, median(values.stream().map(Result::cpuMicrosPerMessage).sorted().toList()));
            System.out.printf(Locale.ROOT, "%-22s %12.0f %9.0f %9.0f %14.1f%n", name, rates.get(name), sorted.get(0),
                    sorted.get(sorted.size() - 1), cpu.get(name));
        });
        System.out.println();
        ratio(rates, "pool 8 / pool 1, 2 ms delay, throughput:      ", "pool-8-delay-2ms", "pool-1-delay-2ms", "x (target >= 6)");
        ratio(rates, "events on / off, StandardWorkflow, throughput:", "standard-events-on", "standard-events-off", " (target >= 0.95)");
        ratio(cpu, "events on / off, StandardWorkflow, CPU/msg:   ", "standard-events-on", "standard-events-off", "");
        ratio(rates, "unread / read, StandardWorkflow, throughput:  ", "standard-unread", "standard-read", "");
        ratio(cpu, "unread / read, StandardWorkflow, CPU/msg:     ", "standard-unread", "standard-read", "");
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void ratio(Map<String, Double> medians, String label, String numerator, String denominator, String target) {
        if (medians.containsKey(numerator) && medians.containsKey(denominator)) {
            System.out.printf(Locale.ROOT, "%s %.3f%s%n", label, medians.get(numerator) / medians.get(denominator), target);
        }
    }
}
