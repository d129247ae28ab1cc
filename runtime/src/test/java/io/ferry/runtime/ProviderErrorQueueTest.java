package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.broker.testing.TestBroker;
import io.ferry.broker.testing.TestClassicBroker;
import io.ferry.core.LifecycleStages;
import io.ferry.core.jms.DestinationRefusal;
import io.ferry.core.jms.ErrorProperties;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;
import io.ferry.provider.testing.ProviderClient;
import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.config.AdapterConfig;

/**
 * Messages that cannot be bridged go to the error queue on the source broker, whatever its vendor, with
 * the reason in properties and their payload and properties as they were sent; the others are
 * bridged once. Two kinds: poison messages a service rejects (the built-in {@code jdbc-lookup} finds no
 * row for a message whose property {@code poison} is true), from an ActiveMQ Classic source over
 * OpenWire and over AMQP; and messages with a property the target's client cannot carry (a name or a
 * value type its client refuses), rejected by the producer ({@code PtpProducer}), never dropped or
 * stripped silently.
 */
class ProviderErrorQueueTest {

    private static final int MESSAGES = 60;
    private static final int SIZE = 256;
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** Three of the channel's longest waits between tries (reconnect.max-interval, 2 s by default): a channel still asking asks in that time. */
    private static final Duration NO_MORE_TRIES = Duration.ofSeconds(6);
    private static final String ERRORS = "ferry.errors";
    /** Rejects a message whose property {@code poison} is true: the query finds no row for it. */
    private static final Map<String, String> POISON_CHECK = Map.of(
            "url", "jdbc:h2:mem:poison-check",
            "query", "SELECT 'clean' AS verdict WHERE CAST(? AS BOOLEAN) = FALSE",
            "parameters", "poison",
            "pool-size", "1");

    @TempDir
    Path dir;

    @Test
    void poisonMessagesFromActiveMqClassicOverOpenWireGoToItsErrorQueue() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            poisonMessagesGoToTheErrorQueue(Route.of(CrossVendorBridgeTest.openWire("local", classic.url()), classic::messageCount,
                    CrossVendorBridgeTest.artemis("remote", artemis.url()), artemis::messageCount));
        }
    }

    @Test
    void poisonMessagesFromActiveMqClassicOverAmqpGoToItsErrorQueue() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            poisonMessagesGoToTheErrorQueue(Route.of(CrossVendorBridgeTest.amqp("local", classic.amqpUrl(), true), classic::messageCount,
                    CrossVendorBridgeTest.artemis("remote", artemis.url()), artemis::messageCount));
        }
    }

    /** OpenWire takes any non-empty property name; Artemis's core client takes only Java identifiers. */
    @Test
    void aPropertyNameArtemisRefusesFromActiveMqClassicGoesToTheErrorQueue() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            uncarriableGoesToTheErrorQueue(Route.of(CrossVendorBridgeTest.openWire("local", classic.url()), classic::messageCount,
                            CrossVendorBridgeTest.artemis("remote", artemis.url()), artemis::messageCount),
                    "has-dash", "a value", "property 'has-dash' (String)", "not a valid java identifier");
        }
    }

    /** OpenWire carries Map and List property values (an ActiveMQ extension); Qpid JMS takes primitives and strings only. */
    @Test
    void aMapValuedPropertyFromActiveMqClassicCannotGoToArtemisOverAmqp() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            uncarriableGoesToTheErrorQueue(Route.of(CrossVendorBridgeTest.openWire("local", classic.url()), classic::messageCount,
                            CrossVendorBridgeTest.amqp("remote", artemis.url().replace("tcp://", "amqp://"), true), artemis::messageCount),
                    "nested", new HashMap<>(Map.of("key", "value")), "property 'nested' (HashMap)", "Only objectified primitive objects");
        }
    }

    /**
     * Qpid JMS leaves a property whose name is not a JMS identifier out of a received message unless its name check
     * is off, which the amqp provider sees to: the property reaches Ferry, and Artemis's core client refuses it.
     */
    @Test
    void aPropertyNameArtemisRefusesFromActiveMqClassicOverAmqpGoesToTheErrorQueue() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            uncarriableGoesToTheErrorQueue(Route.of(CrossVendorBridgeTest.amqp("local", classic.amqpUrl(), true), classic::messageCount,
                                    CrossVendorBridgeTest.artemis("remote", artemis.url()), artemis::messageCount)
                            // Qpid JMS would not set the name as a sender (its check is on outside Ferry's connections).
                            .sentAndReadThrough(CrossVendorBridgeTest.openWire("local", classic.url())),
                    "has-dash", "a value", "property 'has-dash' (String)", "not a valid java identifier");
        }
    }

    /**
     * A message an AMQP producer put on Artemis may carry a property name Artemis's core client refuses to set (the
     * adapter reads it over core all the same): rejected, it moves to the error queue with that property, as sent.
     */
    @Test
    void aRejectedMessageFromArtemisKeepsAPropertyNameItsCoreClientRefusesToSet() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            poisonMessagesGoToTheErrorQueue(Route.of(CrossVendorBridgeTest.artemis("local", local.url()), local::messageCount,
                            // AMQP takes the name on the target: only the rejected messages are under test.
                            CrossVendorBridgeTest.amqp("remote", remote.url().replace("tcp://", "amqp://"), true), remote::messageCount)
                    .sentAndReadThrough(CrossVendorBridgeTest.amqp("local", local.url().replace("tcp://", "amqp://"), true)),
                    Map.of("has-dash", "a value"));
        }
    }

    /** AMQP carries any property name: one that OpenWire takes and Artemis's core client would refuse reaches Artemis over AMQP. */
    @Test
    void aPropertyNameArtemisCoreRefusesIsCarriedToArtemisOverAmqp() throws Exception {
        try (TestClassicBroker classic = TestClassicBroker.started("local", dir.resolve("classic"));
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            ConnectionSettings source = CrossVendorBridgeTest.openWire("local", classic.url());
            ConnectionSettings target = CrossVendorBridgeTest.amqp("remote", artemis.url().replace("tcp://", "amqp://"), true);
            send(source, "in", id -> Map.of("has-dash", "value " + id));
            Route route = Route.of(source, classic::messageCount, target, artemis::messageCount);
            ProviderClient.Received bridged = run(route, route.channel("fidelity"), MESSAGES, 0);
            assertArrivedOnceAsSent(bridged, ids(id -> true), Map.of());
            bridged.byId().forEach((id, copies) -> assertThat(copies.get(0).properties().get("has-dash"))
                    .as("property has-dash of message %d", id).isEqualTo("value " + id));
        }
    }

    /** Artemis's core client carries byte[] property values; Qpid JMS does not. */
    @Test
    void aBytesValuedPropertyFromArtemisCannotGoOverAmqp() throws Exception {
        try (TestBroker local = TestBroker.started("local", dir.resolve("local"));
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            uncarriableGoesToTheErrorQueue(Route.of(CrossVendorBridgeTest.artemis("local", local.url()), local::messageCount,
                            CrossVendorBridgeTest.amqp("remote", remote.url().replace("tcp://", "amqp://"), true), remote::messageCount),
                    "checksum", new byte[] {1, 2, 3}, "property 'checksum' (byte[])", "Only objectified primitive objects");
        }
    }

    /** RabbitMQ JMS checks only a name's first character and the selector's reserved words: a dash passes, and Artemis refuses it. */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void aPropertyNameArtemisRefusesFromRabbitMqGoesToTheErrorQueue() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        try (Connection amqp = RabbitMqTestServer.amqp091().newConnection();
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            Route route = new Route(RabbitMqTestServer.settings("local"), "ferry-test-in-" + suffix, "ferry-test-errors-" + suffix,
                    queue -> rabbitMqMessages(amqp, queue), CrossVendorBridgeTest.artemis("remote", artemis.url()), "out",
                    artemis::messageCount);
            try {
                uncarriableGoesToTheErrorQueue(route, "has-dash", "a value", "property 'has-dash' (String)", "not a valid java identifier");
            } finally {
                RabbitMqTestServer.deleteQueues(List.of(route.in(), route.errors()));
            }
        }
    }

    /**
     * RabbitMQ's AMQP 0-9-1 client takes any property name from JMS but refuses, when it encodes the send, a header
     * name over 255 bytes: that one message goes to the error queue, the connection is not treated as lost.
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void aPropertyNameRabbitMqRefusesWhenSendingGoesToTheErrorQueueWithoutReconnecting() throws Exception {
        refusedWhenSendingToRabbitMq("p".repeat(300), "a value", "Short string too long", "max = 255");
    }

    /**
     * RabbitMQ's JMS client takes a string of any length but cannot encode one over 65,535 bytes in UTF-8 when it sends
     * (Java's writeUTF): that one message goes to the error queue with the reason, the connection is not treated as lost.
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void aStringRabbitMqCannotEncodeGoesToTheErrorQueueWithoutReconnecting() throws Exception {
        refusedWhenSendingToRabbitMq("long", "ü".repeat(40_000), "a string of more than 65,535 bytes", "more than the client can encode");
    }

    /**
     * RabbitMQ's JMS client drops a property whose value is null as it is set (Artemis keeps one): that message goes to
     * the error queue with the reason rather than arriving without the property.
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void aNullPropertyRabbitMqWouldDropGoesToTheErrorQueue() throws Exception {
        refusedWhenSendingToRabbitMq("nothing", null, "property 'nothing' (null)", "drops a property whose value is null");
    }

    /**
     * From Artemis to the RabbitMQ server, message 13 carries a property RabbitMQ's client refuses only as it sends: it goes to
     * the error queue with a reason starting with {@code named}, its neighbours arrive, and the connection is not said lost.
     */
    private void refusedWhenSendingToRabbitMq(String property, Object value, String named, String why) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        try (CapturedLog connectionLog = CapturedLog.of(SharedConnection.class);
             Connection amqp = RabbitMqTestServer.amqp091().newConnection();
             TestBroker artemis = TestBroker.started("local", dir.resolve("artemis"))) {
            Route route = new Route(CrossVendorBridgeTest.artemis("local", artemis.url()), "in", ERRORS, artemis::messageCount,
                    RabbitMqTestServer.settings("remote"), "ferry-test-out-" + suffix, queue -> rabbitMqMessages(amqp, queue));
            try {
                uncarriableGoesToTheErrorQueue(route, id -> id == 13, property, value, named, why);
            } finally {
                RabbitMqTestServer.deleteQueues(List.of(route.out()));
            }
            assertThat(connectionLog.lines(Level.WARN)).as("connection warnings (a lost connection, a reconnect)").isEmpty();
            assertThat(connectionLog.count(Level.INFO, "reconnected")).as("reconnections").isZero();
        }
    }

    /**
     * RabbitMQ drops what is sent to a queue that is gone, and its client cannot tell: an error queue deleted while the
     * channel runs is found gone before a move to it is committed, said once, and declared again by the producer opened
     * again. Every poison message reaches the error queue once, those rejected after the deletion too.
     */
    @Test
    @EnabledIfEnvironmentVariable(named = "FERRY_TEST_RABBITMQ_URL", matches = ".+")
    void anErrorQueueDeletedOnRabbitMqWhileTheChannelRunsIsDeclaredAgainAndNoPoisonMessageIsLost() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        IntPredicate poison = id -> id % 10 == 7;
        int half = MESSAGES / 2;
        Set<Integer> rejectedBefore = ids(poison.and(id -> id < half));
        Set<Integer> rejectedAfter = ids(poison.and(id -> id >= half));
        try (Connection amqp = RabbitMqTestServer.amqp091().newConnection();
             TestBroker artemis = TestBroker.started("remote", dir.resolve("artemis"))) {
            Route route = new Route(RabbitMqTestServer.settings("local"), "ferry-test-in-" + suffix, "ferry-test-errors-" + suffix,
                    queue -> rabbitMqMessages(amqp, queue), CrossVendorBridgeTest.artemis("remote", artemis.url()), "out",
                    artemis::messageCount);
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), poisonChecked(route))) {
                send(route.source(), route.in(), 0, half, id -> Map.of("poison", poison.test(id)));
                await().atMost(DEADLINE).until(() -> artemis.messageCount(route.out()) >= half - rejectedBefore.size()
                        && rabbitMqMessages(amqp, route.errors()) >= rejectedBefore.size());
                assertArrivedOnceAsSent(receive(route.source(), route.errors(), rejectedBefore.size()), rejectedBefore, Map.of());
                RabbitMqTestServer.deleteQueues(List.of(route.errors()));

                send(route.source(), route.in(), half, MESSAGES, id -> Map.of("poison", poison.test(id)));
                // Off the source only once each move is committed: read the error queue before any client of the test declares it.
                await().atMost(DEADLINE).until(() -> artemis.messageCount(route.out()) >= MESSAGES - rejectedBefore.size() - rejectedAfter.size()
                        && rabbitMqMessages(amqp, route.in()) == 0);
                assertThat(rabbitMqMessages(amqp, route.errors())).as("in the error queue, declared again by Ferry").isEqualTo(rejectedAfter.size());
                assertArrivedOnceAsSent(receive(route.source(), route.errors(), rejectedAfter.size()), rejectedAfter, Map.of());
                assertThat(refusals.lines(Level.WARN)).singleElement().asString()
                        .startsWith("local broker refuses queue " + route.errors() + " as the error queue: queue '" + route.errors() + "' is gone");
            } finally {
                RabbitMqTestServer.deleteQueues(List.of(route.in(), route.errors()));
            }
            assertArrivedOnceAsSent(receive(route.target(), route.out(), MESSAGES - rejectedBefore.size() - rejectedAfter.size()),
                    ids(poison.negate()), Map.of("verdict", "clean"));
        }
    }

    /**
     * An error queue the broker refuses (it does not exist, and the broker creates none on demand) keeps the poison
     * messages on the source, said once, the connection kept; once it is declared they go there, each once.
     */
    @Test
    void poisonMessagesStayOnTheSourceWhileTheBrokerRefusesTheErrorQueue() throws Exception {
        try (TestBroker local = TestBroker.create("local", dir.resolve("local"), EmbeddedBroker.declaredOnly()).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            Route route = undeclaredErrorQueue(local, remote);
            poisonWaitsForTheErrorQueue(local, remote, route, "Destination errors.undeclared does not exist",
                    () -> local.running().createQueue(route.errors()));
        }
    }

    /**
     * The same where the user may not send to the error queue, which Artemis checks at each send (the commit fails), the
     * producer opened fine: no lost connection either, and once the right is given the poison messages go there.
     */
    @Test
    void poisonMessagesStayOnTheSourceWhileTheUserMayNotSendToTheErrorQueue() throws Exception {
        String errors = "errors.forbidden";
        try (TestBroker local = TestBroker.create("local", dir.resolve("local"), SendRights.withheldOn(errors), SendRights.users()).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            local.running().createQueue(errors);
            ConnectionSettings source = new ConnectionSettings("local", "artemis", local.url(), SendRights.USER, SendRights.PASSWORD, null,
                    Map.of(), true);
            Route route = new Route(source, "in", errors, local::messageCount, CrossVendorBridgeTest.artemis("remote", remote.url()), "out",
                    remote::messageCount);
            poisonWaitsForTheErrorQueue(local, remote, route, "AMQ229032: User: ferry does not have permission='SEND' on address " + errors,
                    () -> SendRights.give(local, errors));
        }
    }

    /**
     * An error queue that is full (Artemis's FAIL policy: it takes one message here, then refuses more) refuses the move as
     * the queue is used: the poison message waits on the source, said once, the connection kept (the failed move was taken
     * for a lost connection, reconnected at every try); as the error queue's consumer makes room, one message at a time,
     * every poison message goes there, each once, and the others to the target.
     */
    @Test
    void poisonMessagesStayOnTheSourceWhileTheErrorQueueIsFull() throws Exception {
        String errors = "errors.full";
        try (TestBroker local = TestBroker.create("local", dir.resolve("local"), EmbeddedBroker.failing(errors, 1)).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            Route route = new Route(CrossVendorBridgeTest.artemis("local", local.url()), "in", errors, local::messageCount,
                    CrossVendorBridgeTest.artemis("remote", remote.url()), "out", remote::messageCount);
            IntPredicate poison = id -> id % 10 == 7;
            Set<Integer> rejected = ids(poison);
            String yaml = poisonSentAndChecked(route, poison);
            Map<Integer, Integer> moved = new HashMap<>();
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 CapturedLog connections = CapturedLog.of(SharedConnection.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml)) {
                FerryChannel channel = refusedOnce(adapter, refusals, connections, route, "AMQ2");
                // The broker's answer (AMQ229102) or the client's own check against the credit the broker gave (AMQ219058).
                assertThat(refusals.lines(Level.WARN)).singleElement().asString().contains(": Address \"" + errors + "\" is full.");
                assertThat(local.messageCount(errors)).as("in the full error queue").isOne();
                assertThat(local.messageCount(route.in())).as("on the source, the second poison message among them").isPositive();

                try (ProviderClient reader = new ProviderClient(route.sourceClient());
                     MessageConsumer consumer = reader.session().createConsumer(reader.session().createQueue(errors))) {
                    await().atMost(DEADLINE).until(() -> {
                        Message message = consumer.receive(100);
                        if (message != null) {
                            moved.merge(message.getIntProperty(ProviderClient.ID), 1, Integer::sum);
                            reader.session().commit(); // room for the next
                        }
                        return moved.size() == rejected.size() && remote.messageCount(route.out()) >= MESSAGES - rejected.size();
                    });
                }
                assertThat(connections.lines(Level.WARN)).as("connection lines").isEmpty();
                assertThat(channel.localReconnects()).as("reconnections").isZero();
            }
            assertThat(moved).as("poison messages moved, each once").isEqualTo(rejected.stream().collect(Collectors.toMap(id -> id, id -> 1)));
            assertThat(local.messageCount(route.in())).as("left on the source").isZero();
            assertThat(local.messageCount(errors)).as("left in the error queue").isZero();
            assertArrivedOnceAsSent(receive(route.target(), route.out(), MESSAGES - rejected.size()), ids(poison.negate()),
                    Map.of("verdict", "clean"));
        }
    }

    /**
     * Every tenth message is poison; the broker refuses the error queue, with {@code reason}, until {@code allow} runs: the
     * refusal is said once, the connection kept, and then every poison message goes to the error queue, each once.
     */
    private void poisonWaitsForTheErrorQueue(TestBroker local, TestBroker remote, Route route, String reason, Runnable allow) throws Exception {
        IntPredicate poison = id -> id % 10 == 7;
        String yaml = poisonSentAndChecked(route, poison);
        try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
             CapturedLog connections = CapturedLog.of(SharedConnection.class);
             RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml)) {
            refusedOnce(adapter, refusals, connections, route, reason);
            assertThat(local.messageCount(route.in())).as("on the source, the first poison message among them").isPositive();

            allow.run();
            Set<Integer> rejected = ids(poison);
            await().atMost(DEADLINE).until(() -> remote.messageCount(route.out()) >= MESSAGES - rejected.size()
                    && local.messageCount(route.errors()) >= rejected.size());
            assertThat(refusals.lines(Level.INFO)).singleElement().asString()
                    .startsWith("local broker takes queue " + route.errors() + " as the error queue again, after ");
        }
        assertThat(local.messageCount(route.in())).as("left on the source").isZero();
        assertArrivedOnceAsSent(receive(route.target(), route.out(), MESSAGES - ids(poison).size()), ids(poison.negate()),
                Map.of("verdict", "clean"));
        assertArrivedOnceAsSent(receive(route.sourceClient(), route.errors(), ids(poison).size()), ids(poison), Map.of());
    }

    /** The broker refuses the channel's error queue, with {@code reason}: awaited, said once, the connection kept. */
    private static FerryChannel refusedOnce(RunningAdapter adapter, CapturedLog refusals, CapturedLog connections, Route route, String reason) {
        FerryChannel channel = adapter.channels().channel("poison").orElseThrow();
        DestinationRefusal refusal = channel.errorQueueRefusal();
        await().atMost(DEADLINE).until(() -> refusal.attempts() >= 3);
        assertThat(refusals.lines(Level.WARN)).singleElement().asString()
                .startsWith("local broker refuses queue " + route.errors() + " as the error queue: " + reason);
        assertThat(connections.lines(Level.WARN)).as("connection lines").isEmpty();
        assertThat(channel.localReconnects()).as("reconnections").isZero();
        return channel;
    }

    /**
     * The one poison message that waited for a refused error queue, taken off the source by hand: the channel goes on
     * and no longer asks for the error queue, so the refusals stop; the last one still counts for its minute (its end:
     * DestinationRefusalTest).
     */
    @Test
    void aPoisonMessageTakenOffByHandEndsTheTriesForTheErrorQueue() throws Exception {
        try (TestBroker local = TestBroker.create("local", dir.resolve("local"), EmbeddedBroker.declaredOnly()).start();
             TestBroker remote = TestBroker.started("remote", dir.resolve("remote"))) {
            Route route = undeclaredErrorQueue(local, remote);
            int poison = 7;
            String yaml = poisonSentAndChecked(route, id -> id == poison);
            try (CapturedLog refusals = CapturedLog.of(DestinationRefusal.class);
                 RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml);
                 ProviderClient operator = new ProviderClient(route.sourceClient())) {
                DestinationRefusal refusal = adapter.channels().channel("poison").orElseThrow().errorQueueRefusal();
                await().atMost(DEADLINE).until(() -> refusal.attempts() >= 3);
                // Between the channel's tries the message is back on the queue: take it then.
                try (MessageConsumer byHand = operator.session().createConsumer(operator.session().createQueue(route.in()), "poison = TRUE")) {
                    await().atMost(DEADLINE).until(() -> byHand.receive(100) != null);
                    operator.session().commit();
                }

                await().atMost(DEADLINE).until(() -> remote.messageCount(route.out()) >= MESSAGES - 1);
                long attempts = refusal.attempts();
                assertThat(refusal.reason()).as("once the other messages are through").isNotNull();
                // Nothing asks for the error queue any more.
                await().during(NO_MORE_TRIES).atMost(NO_MORE_TRIES.plusSeconds(10)).until(() -> refusal.attempts() == attempts);
                assertThat(refusal.reason()).as("within a minute of the last refusal").isNotNull();
                assertThat(refusals.lines(Level.WARN)).hasSize(1);
                assertThat(refusals.lines(Level.INFO)).as("no 'takes again': the broker still refuses the queue").isEmpty();
            }
            assertArrivedOnceAsSent(receive(route.target(), route.out(), MESSAGES - 1), ids(id -> id != poison), Map.of("verdict", "clean"));
        }
    }

    /** Artemis to Artemis, the error queue one the local broker neither has nor creates. */
    private static Route undeclaredErrorQueue(TestBroker local, TestBroker remote) {
        return new Route(CrossVendorBridgeTest.artemis("local", local.url()), "in", "errors.undeclared", local::messageCount,
                CrossVendorBridgeTest.artemis("remote", remote.url()), "out", remote::messageCount);
    }

    /** Sends the test's messages, {@code poison} ones marked so; answers the adapter's configuration, whose service rejects them. */
    private static String poisonSentAndChecked(Route route, IntPredicate poison) throws Exception {
        send(route.sourceClient(), route.in(), id -> Map.of("poison", poison.test(id)));
        return poisonChecked(route);
    }

    /** The adapter's configuration for the route, its service rejecting the messages marked poison. */
    private static String poisonChecked(Route route) {
        return AdapterConfig.empty().connection("local", CrossVendorBridgeTest.yaml(route.source()))
                .connection("remote", CrossVendorBridgeTest.yaml(route.target()))
                .channel(route.channel("poison").service("poison-check", "jdbc-lookup", POISON_CHECK)).yaml();
    }

    /** Every tenth message (ids 7, 17, ...) is poison: rejected by the service three times, then moved to the error queue. */
    private void poisonMessagesGoToTheErrorQueue(Route route) throws Exception {
        poisonMessagesGoToTheErrorQueue(route, Map.of());
    }

    /** The same, every message also carrying {@code properties}, which arrive with it at the target or the error queue. */
    private void poisonMessagesGoToTheErrorQueue(Route route, Map<String, Object> properties) throws Exception {
        IntPredicate poison = id -> id % 10 == 7;
        send(route.sourceClient(), route.in(), id -> {
            Map<String, Object> sent = new HashMap<>(properties);
            sent.put("poison", poison.test(id));
            return sent;
        });
        AdapterConfig.Channel channel = route.channel("poison").service("poison-check", "jdbc-lookup", POISON_CHECK);
        Set<Integer> rejected = ids(poison);
        ProviderClient.Received bridged = run(route, channel, MESSAGES - rejected.size(), rejected.size());

        Map<String, Object> clean = new HashMap<>(properties);
        clean.put("verdict", "clean");
        assertArrivedOnceAsSent(bridged, ids(poison.negate()), clean);
        ProviderClient.Received errors = receive(route.sourceClient(), route.errors(), rejected.size());
        Map<String, Object> moved = new HashMap<>(properties);
        moved.putAll(Map.of(
                ErrorProperties.STAGE, LifecycleStages.service("poison-check"),
                ErrorProperties.EXCEPTION_CLASS, "io.ferry.api.ServiceException",
                ErrorProperties.ORIGINAL_DESTINATION, route.in(),
                ErrorProperties.ATTEMPTS, 3));
        assertArrivedOnceAsSent(errors, rejected, moved);
        errors.byId().forEach((id, copies) -> assertThat(copies.get(0).properties().get(ErrorProperties.MESSAGE)).asString()
                .startsWith("service 'poison-check': no row for poison=true"));
    }

    /** Every tenth message (ids 3, 13, ...) carries a property the target cannot take: it goes to the error queue, its neighbours arrive. */
    private void uncarriableGoesToTheErrorQueue(Route route, String property, Object value, String named, String why) throws Exception {
        uncarriableGoesToTheErrorQueue(route, id -> id % 10 == 3, property, value, named, why);
    }

    /** The messages {@code uncarriable} picks carry a property the target cannot take; the reason starts with {@code named}. */
    private void uncarriableGoesToTheErrorQueue(Route route, IntPredicate uncarriable, String property, Object value, String named, String why)
            throws Exception {
        send(route.sourceClient(), route.in(), id -> uncarriable.test(id) ? Collections.singletonMap(property, value) : Map.of());
        Set<Integer> rejected = ids(uncarriable);
        ProviderClient.Received bridged = run(route, route.channel("fidelity"), MESSAGES - rejected.size(), rejected.size());

        assertArrivedOnceAsSent(bridged, ids(uncarriable.negate()), Map.of());
        ProviderClient.Received errors = receive(route.sourceClient(), route.errors(), rejected.size());
        assertArrivedOnceAsSent(errors, rejected, Map.of(
                ErrorProperties.STAGE, LifecycleStages.PRODUCER,
                ErrorProperties.ORIGINAL_DESTINATION, route.in(),
                ErrorProperties.ATTEMPTS, 3));
        errors.byId().forEach((id, copies) -> {
            Map<String, Object> properties = copies.get(0).properties();
            assertThat(properties.get(ErrorProperties.MESSAGE)).asString().as("the reason of message %d", id)
                    .startsWith(named).contains(why);
            // Compared as text for a map: ActiveMQ's client hands a map property's strings back as its own UTF8Buffer.
            assertThat(properties).as("the properties of message %d in the error queue", id).containsKey(property);
            Object kept = properties.get(property);
            assertThat(kept instanceof Map<?, ?> ? String.valueOf(kept) : kept).as("the property the target refused, kept in the error queue")
                    .isEqualTo(value instanceof Map<?, ?> ? String.valueOf(value) : value);
        });
    }

    /**
     * Runs the adapter until the target has {@code bridged} messages and the source's error queue {@code rejected};
     * answers what arrived at the target, after checking nothing is left on the source.
     */
    private ProviderClient.Received run(Route route, AdapterConfig.Channel channel, int bridged, int rejected) throws Exception {
        String yaml = AdapterConfig.empty().connection(route.source().name(), CrossVendorBridgeTest.yaml(route.source()))
                .connection(route.target().name(), CrossVendorBridgeTest.yaml(route.target())).channel(channel).yaml();
        try (RunningAdapter adapter = RunningAdapter.start(dir.resolve("ferry.yml"), yaml)) {
            await().atMost(DEADLINE).until(() -> route.delivered().applyAsLong(route.out()) >= bridged
                    && route.sourceCount().applyAsLong(route.errors()) >= rejected);
        }
        assertThat(route.sourceCount().applyAsLong(route.in())).as("left on the source").isZero();
        return receive(route.target(), route.out(), bridged);
    }

    /**
     * Where a test's messages go: from queue {@code in} at the source to queue {@code out} at the target, the rejected
     * ones to queue {@code errors} at the source; each side's message count of a queue, as its broker tells it; and the
     * client the test sends to and reads the source with (the adapter's, unless said otherwise).
     */
    private record Route(ConnectionSettings source, String in, String errors, ToLongFunction<String> sourceCount,
                         ConnectionSettings target, String out, ToLongFunction<String> delivered, ConnectionSettings sourceClient) {

        Route(ConnectionSettings source, String in, String errors, ToLongFunction<String> sourceCount,
              ConnectionSettings target, String out, ToLongFunction<String> delivered) {
            this(source, in, errors, sourceCount, target, out, delivered, source);
        }

        static Route of(ConnectionSettings source, ToLongFunction<String> sourceCount, ConnectionSettings target,
                        ToLongFunction<String> targetCount) {
            return new Route(source, "in", ERRORS, sourceCount, target, "out", targetCount);
        }

        /** The same route, the test sending to and reading the source through another client than the adapter's. */
        Route sentAndReadThrough(ConnectionSettings client) {
            return new Route(source, in, errors, sourceCount, target, out, delivered, client);
        }

        AdapterConfig.Channel channel(String id) {
            return AdapterConfig.Channel.of(id).consume(source.name(), "queue", in).produce(target.name(), "queue", out)
                    .set("error-queue", errors).workflow("send-events", false);
        }
    }

    /** {@link ProviderClient}'s numbered messages (bytes and text, a property of every type), each with the extra properties given. */
    private static void send(ConnectionSettings settings, String queue, IntFunction<Map<String, Object>> extra) throws Exception {
        send(settings, queue, 0, MESSAGES, extra);
    }

    /** The same for the numbers from {@code first} up to {@code end}, not included. */
    private static void send(ConnectionSettings settings, String queue, int first, int end, IntFunction<Map<String, Object>> extra)
            throws Exception {
        try (ProviderClient client = new ProviderClient(settings)) {
            Session session = client.session();
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int id = first; id < end; id++) {
                Message message;
                if (id % 2 == 0) {
                    BytesMessage bytes = session.createBytesMessage();
                    bytes.writeBytes(ProviderClient.payload(id, SIZE));
                    message = bytes;
                } else {
                    message = session.createTextMessage(ProviderClient.text(id, SIZE));
                }
                message.setIntProperty(ProviderClient.ID, id);
                for (Map.Entry<String, Object> property : ProviderClient.typedProperties(id).entrySet()) {
                    message.setObjectProperty(property.getKey(), property.getValue());
                }
                for (Map.Entry<String, Object> property : extra.apply(id).entrySet()) {
                    message.setObjectProperty(property.getKey(), property.getValue());
                }
                producer.send(message);
            }
            if (settings.transacted()) {
                session.commit();
            }
        }
    }

    private static ProviderClient.Received receive(ConnectionSettings settings, String queue, int expected) throws Exception {
        try (ProviderClient client = new ProviderClient(settings)) {
            return client.receive(queue, expected, DEADLINE);
        }
    }

    /** Exactly these ids arrived, each once, with the payload, kind and typed properties sent, and the properties given. */
    private static void assertArrivedOnceAsSent(ProviderClient.Received received, Set<Integer> ids, Map<String, Object> alsoCarried) {
        assertThat(received.duplicated()).as("messages that arrived more than once").isEmpty();
        assertThat(received.byId().keySet()).as("message numbers that arrived").containsExactlyElementsOf(new TreeSet<>(ids));
        received.byId().forEach((id, copies) -> {
            ProviderClient.Arrival arrival = copies.get(0);
            boolean text = id % 2 != 0;
            byte[] payload = text ? ProviderClient.text(id, SIZE).getBytes(StandardCharsets.UTF_8) : ProviderClient.payload(id, SIZE);
            assertThat(arrival.text()).as("message %d is a text message", id).isEqualTo(text);
            assertThat(Arrays.equals(arrival.payload(), payload)).as("payload of message %d", id).isTrue();
            ProviderClient.typedProperties(id).forEach((name, value) -> assertThat(arrival.properties().get(name))
                    .as("property %s of message %d", name, id).isEqualTo(value).hasSameClassAs(value));
            alsoCarried.forEach((name, value) -> assertThat(arrival.properties().get(name))
                    .as("property %s of message %d", name, id).isEqualTo(value));
        });
    }

    private static Set<Integer> ids(IntPredicate which) {
        return IntStream.range(0, MESSAGES).filter(which).boxed().collect(Collectors.toCollection(TreeSet::new));
    }

    /** The messages in a RabbitMQ queue; 0 when it does not exist (yet), asked on a channel of its own. */
    private static long rabbitMqMessages(Connection amqp, String queue) {
        try (Channel channel = amqp.createChannel()) {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (Exception e) {
            return 0;
        }
    }
}
