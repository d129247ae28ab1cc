package io.ferry.core.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;

import org.junit.jupiter.api.Test;

import io.ferry.core.Backoff;

/**
 * How long a refusal counts: from the last one, for three of the channel's longest waits between tries and at least a
 * minute; the clock is the test's, so that minutes pass at once.
 */
class DestinationRefusalTest {

    private static final JMSException REFUSAL = new DestinationRefusedException(new InvalidDestinationException("There is no queue with name orders"));

    private final AtomicLong now = new AtomicLong(1_000);

    private DestinationRefusal refusal(Duration countsFor) {
        return new DestinationRefusal("local", "queue orders as the source", failure -> null, countsFor, now::get);
    }

    private void pass(Duration time) {
        now.addAndGet(time.toNanos());
    }

    @Test
    void aRefusalCountsUntilTheTimeAfterTheLastOneIsUp() {
        DestinationRefusal refusal = refusal(Duration.ofMinutes(1));
        assertThat(refusal.refusedIf(REFUSAL)).isTrue();
        pass(Duration.ofSeconds(50));
        assertThat(refusal.refusedIf(REFUSAL)).isTrue();
        pass(Duration.ofSeconds(50));
        assertThat(refusal.reason()).as("50 s after the last of two").isEqualTo("There is no queue with name orders");
        assertThat(refusal.attempts()).isEqualTo(2);
        pass(Duration.ofSeconds(10));
        assertThat(refusal.reason()).as("a minute after the last").isNull();
        assertThat(refusal.attempts()).isZero();

        assertThat(refusal.refusedIf(REFUSAL)).isTrue();
        assertThat(refusal.attempts()).as("refusals that start again count from one").isEqualTo(1);
    }

    @Test
    void aFailureThatIsNoRefusalIsNotCounted() {
        DestinationRefusal refusal = refusal(Duration.ofMinutes(1));
        assertThat(refusal.refusedIf(new JMSException("connection reset"))).isFalse();
        assertThat(refusal.reason()).isNull();
        assertThat(refusal.attempts()).isZero();
    }

    @Test
    void aDestinationTakenAgainOrAChannelStoppedEndsTheRefusalsAtOnce() {
        DestinationRefusal refusal = refusal(Duration.ofMinutes(1));
        refusal.refusedIf(REFUSAL);
        refusal.accepted();
        assertThat(refusal.reason()).isNull();
        refusal.refusedIf(REFUSAL);
        refusal.clear();
        assertThat(refusal.attempts()).isZero();
    }

    /** A refusal of opening ends with an open that succeeds; one of use (a send or commit, opened fine) only with use that succeeds. */
    @Test
    void anOpenEndsARefusalOfOpeningButNotOneOfUse() {
        DestinationRefusal refusal = refusal(Duration.ofMinutes(1));
        refusal.refusedIf(REFUSAL);
        refusal.opened();
        assertThat(refusal.reason()).as("refused at open, then opened").isNull();

        refusal.refusedInUse(new JMSSecurityException("AMQ229032: User: ferry does not have permission='SEND' on address orders"));
        refusal.opened();
        assertThat(refusal.reason()).as("refused in use, then opened").contains("permission='SEND'");
        assertThat(refusal.attempts()).isEqualTo(1);
        refusal.accepted();
        assertThat(refusal.reason()).as("refused in use, then taken").isNull();
    }

    @Test
    void theProvidersExplanationIsTheReasonWhereItHasOne() {
        DestinationRefusal refusal = new DestinationRefusal("local", "queue orders as the source", failure -> "declare it on the broker",
                Duration.ofMinutes(1), now::get);
        refusal.refusedIf(REFUSAL);
        assertThat(refusal.reason()).isEqualTo("declare it on the broker");
    }

    @Test
    void aRefusalCountsForThreeOfTheLongestWaitsBetweenTriesAndAtLeastAMinute() {
        assertThat(DestinationRefusal.countsFor(Backoff.DEFAULT)).as("tries at most 2 s apart").isEqualTo(Duration.ofMinutes(1));
        Backoff slow = new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5));
        assertThat(DestinationRefusal.countsFor(slow)).isEqualTo(Duration.ofMinutes(15));

        // A channel that tries every 5 minutes stays refused between its tries.
        DestinationRefusal refusal = refusal(DestinationRefusal.countsFor(slow));
        refusal.refusedIf(REFUSAL);
        pass(Duration.ofMinutes(5));
        assertThat(refusal.reason()).isNotNull();
        refusal.refusedIf(REFUSAL);
        pass(Duration.ofMinutes(14));
        assertThat(refusal.attempts()).isEqualTo(2);
        pass(Duration.ofMinutes(1));
        assertThat(refusal.reason()).isNull();
    }
}
