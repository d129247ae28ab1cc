package io.ferry.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.jms.JMSException;
import jakarta.jms.Session;

import org.apache.activemq.artemis.core.client.ActiveMQClientMessageBundle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import ch.qos.logback.classic.Level;
import io.ferry.broker.testing.TestBroker;
import io.ferry.core.jms.SharedConnection;
import io.ferry.core.provider.ConnectionSettings;

/**
 * A lost connection is logged once, with its cause. A session's failure often only echoes the connection's (Artemis
 * unblocking a waiting call without saying why), so when a session finds the loss first, the line waits for the
 * connection's listener and its cause; if none comes before the next attempt to connect, the session's failure is
 * logged then.
 */
class ConnectionLossLogTest {

    private static final String LOST = "remote broker connection lost";

    @TempDir
    Path dir;

    private CapturedLog log;
    private TestBroker broker;
    private SharedConnection connection;

    /** A connection in use, whose session then finds the loss before the connection's listener says anything. */
    @BeforeEach
    void sessionFindsTheLossFirst() throws Exception {
        log = CapturedLog.of(SharedConnection.class);
        broker = TestBroker.started("remote", dir.resolve("broker"));
        connection = new SharedConnection(ConnectionSettings.anonymous("remote", broker.url()));
        SharedConnection.OpenedSession session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
        connection.reportFailure(session.generation(), echo());
    }

    @AfterEach
    void close() {
        connection.close();
        broker.close();
        log.close();
    }

    @Test
    void aSessionsFailureIsLoggedWithTheCauseTheConnectionReportsAfterIt() {
        assertThat(connection.state()).isEqualTo(SharedConnection.State.DOWN);
        assertThat(log.count(Level.WARN, LOST)).as("nothing logged before the cause is known").isZero();

        broker.stop(); // the connection's listener hears of the shutdown
        await().atMost(Duration.ofSeconds(30)).until(() -> log.count(Level.WARN, LOST) == 1);
        assertThat(log.lines(Level.WARN)).filteredOn(line -> line.contains(LOST)).singleElement().asString()
                .contains("server shutdown").doesNotContain("AMQ219016");
    }

    @Test
    void aSessionsFailureWithoutAnyCauseAfterItIsLoggedBeforeTheNextAttempt() throws Exception {
        connection.createSession(Session.AUTO_ACKNOWLEDGE).session().close();

        assertThat(log.lines(Level.WARN)).filteredOn(line -> line.contains(LOST)).singleElement().asString().contains("AMQ219016");
        assertThat(log.lines(Level.INFO)).anySatisfy(line -> assertThat(line).contains("remote broker reconnected"));
        assertThat(connection.state()).isEqualTo(SharedConnection.State.CONNECTED);
    }

    /**
     * A broker that does not answer is named with its address and what the operating system says of it, where Artemis's
     * client says only "Failed to create session factory".
     */
    @Test
    void anUnreachableBrokerIsLoggedWithItsAddressAndWhy() {
        broker.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> log.count(Level.WARN, LOST) == 1);

        assertThatThrownBy(() -> connection.createSession(Session.AUTO_ACKNOWLEDGE)).isInstanceOf(JMSException.class);
        assertThat(log.lines(Level.WARN)).filteredOn(line -> line.contains("remote broker unreachable")).singleElement().asString()
                .contains("remote broker unreachable, reconnecting with back-off: Connection refused (" + broker.url() + ")");
    }

    /** What a worker's blocked commit gets when Artemis unblocks it without the failure's cause. */
    private static JMSException echo() {
        JMSException unblocked = new JMSException("AMQ219016: Connection failure detected. Unblocking a blocking call that will never get a response");
        unblocked.setLinkedException(ActiveMQClientMessageBundle.BUNDLE.unblockingACall(null));
        return unblocked;
    }
}
