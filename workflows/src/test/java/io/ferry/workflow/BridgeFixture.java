package io.ferry.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;
import io.ferry.broker.testing.JmsTestClient;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.Backoff;
import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.core.jms.JmsDestination;
import io.ferry.core.jms.JmsEndpoints;
import io.ferry.profiling.TimingRegistry;

/**
 * Two real brokers for workflow tests: queue {@value #IN} on the local one, {@value #OUT} on the
 * remote one, rejected messages in {@value #ERRORS} on the local one. Messages carry a sequence
 * number in {@value #SEQ} so that deliveries can be counted exactly.
 */
final class BridgeFixture implements AutoCloseable {

    static final String IN = "in";
    static final String OUT = "out";
    static final String ERRORS = "errors";
    static final String SEQ = "seq";
    static final int PAYLOAD_SIZE = 3 * 1024;

    final TestBroker local;
    final TestBroker remote;
    private final List<JmsEndpoints> endpoints = new ArrayList<>();
    private final List<AbstractWorkflow> workflows = new ArrayList<>();
    private final List<LifecycleEventPublisher> publishers = new ArrayList<>();

    /** A service for tests, written as a lambda. */
    @FunctionalInterface
    interface ServiceBody {
        void apply(FerryMessage message) throws ServiceException;
    }

    /** Throws {@code thrown} where the compiler takes it for a {@code T}: a checked exception then goes undeclared. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable thrown) throws T {
        throw (T) thrown;
    }

    static Service service(String id, ServiceBody body) {
        return new Service() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public void apply(FerryMessage message) throws ServiceException {
                body.apply(message);
            }
        };
    }

    BridgeFixture(Path dir) {
        local = TestBroker.started("local", dir.resolve("local"));
        remote = TestBroker.create("remote", dir.resolve("remote"));
    }

    BridgeFixture startRemote() {
        remote.start();
        return this;
    }

    JmsEndpoints endpoints() {
        return endpoints(true);
    }

    /** @param messagesRead false: for a workflow without services, which sends messages on unread (both ends Artemis) */
    JmsEndpoints endpoints(boolean messagesRead) {
        JmsEndpoints created = new JmsEndpoints(ConnectionSettings.anonymous("local", local.url()), JmsDestination.queue(IN),
                ConnectionSettings.anonymous("remote", remote.url()), JmsDestination.queue(OUT), ERRORS, messagesRead, Backoff.DEFAULT);
        endpoints.add(created);
        return created;
    }

    /** Starts a workflow that {@link #close()} stops. */
    <W extends AbstractWorkflow> W start(W workflow) {
        workflows.add(workflow);
        workflow.start();
        return workflow;
    }

    /** Stops every workflow started here (draining), so the counts that follow are final. */
    void stopWorkflows() {
        workflows.forEach(workflow -> workflow.stop(Duration.ofSeconds(10)));
        workflows.clear();
    }

    /** A lifecycle event publisher to a topic on the given broker, closed by {@link #close()}. */
    LifecycleEventPublisher events(TestBroker broker, String topic) {
        LifecycleEventPublisher publisher = new LifecycleEventPublisher(ConnectionSettings.anonymous("events", broker.url()),
                new LifecycleEventPublisher.Settings(topic, 10_000, 100, Duration.ofMillis(50),
                        new Backoff(Duration.ofMillis(50), 2.0, Duration.ofMillis(500))), TimingRegistry.global());
        publishers.add(publisher);
        return publisher;
    }

    /** Sends persistent 3 KB bytes messages numbered 0..count-1, in transacted batches, with extra properties per number. */
    void sendNumbered(int count, IntFunction<Map<String, Object>> extraProperties) throws JMSException {
        sendNumbered(0, count, extraProperties);
    }

    /** Sends persistent 3 KB bytes messages numbered first..first+count-1, in transacted batches, with extra properties. */
    void sendNumbered(int first, int count, IntFunction<Map<String, Object>> extraProperties) throws JMSException {
        try (Connection connection = new ActiveMQConnectionFactory(local.url()).createConnection()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer producer = session.createProducer(session.createQueue(IN));
            for (int seq = first; seq < first + count; seq++) {
                BytesMessage message = session.createBytesMessage();
                message.writeBytes(payload(seq));
                message.setIntProperty(SEQ, seq);
                for (Map.Entry<String, Object> property : extraProperties.apply(seq).entrySet()) {
                    message.setObjectProperty(property.getKey(), property.getValue());
                }
                producer.send(message);
                if (seq % 500 == 499) {
                    session.commit();
                }
            }
            session.commit();
        }
    }

    void sendNumbered(int count) throws JMSException {
        sendNumbered(count, seq -> Map.of());
    }

    /** Receives everything on a queue until it stays empty for half a second. */
    List<Message> drain(TestBroker broker, String queue) throws JMSException {
        try (JmsTestClient client = new JmsTestClient(broker.url())) {
            return client.drain(queue, 500);
        }
    }

    /** The sequence numbers of the messages, failing on any duplicate. */
    static Set<Integer> sequences(List<Message> messages) throws JMSException {
        Map<Integer, Integer> times = new HashMap<>();
        for (Message message : messages) {
            times.merge(message.getIntProperty(SEQ), 1, Integer::sum);
        }
        assertThat(times.entrySet()).as("duplicated sequence numbers").noneMatch(entry -> entry.getValue() > 1);
        return new TreeSet<>(times.keySet());
    }

    static Set<Integer> range(int from, int to) {
        Set<Integer> all = new TreeSet<>();
        for (int i = from; i < to; i++) {
            all.add(i);
        }
        return all;
    }

    static byte[] payload(int seq) {
        byte[] payload = new byte[PAYLOAD_SIZE];
        Arrays.fill(payload, (byte) ('a' + seq % 26));
        byte[] prefix = ("seq=" + seq + ";").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(prefix, 0, payload, 0, prefix.length);
        return payload;
    }

    static byte[] body(BytesMessage message) throws JMSException {
        byte[] body = new byte[(int) message.getBodyLength()];
        message.readBytes(body);
        return body;
    }

    @Override
    public void close() {
        stopWorkflows();
        publishers.forEach(LifecycleEventPublisher::close);
        endpoints.forEach(JmsEndpoints::close);
        remote.close();
        local.close();
    }
}
