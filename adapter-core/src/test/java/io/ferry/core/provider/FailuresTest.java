package io.ferry.core.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import jakarta.jms.JMSException;

import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void aFailureIsToldByItsOwnMessageElseByTheFirstItWrapsElseByItsType() {
        assertThat(Failures.message(new JMSException("refused"))).isEqualTo("refused");
        // RabbitMQ's JMS client: no message of its own around the broker's reason.
        JMSException silent = new JMSException(null);
        silent.initCause(new IOException(null, new IllegalStateException("PRECONDITION_FAILED - inequivalent arg 'x-max-length'")));
        assertThat(Failures.message(silent)).isEqualTo("PRECONDITION_FAILED - inequivalent arg 'x-max-length'");
        JMSException linked = new JMSException(" ");
        linked.setLinkedException(new IOException("reset"));
        assertThat(Failures.message(linked)).isEqualTo("reset");
        assertThat(Failures.message(new JMSException(null))).isEqualTo("JMSException");
    }

    /** A JMS exception's cause and its linked exception are both followed where they differ, and a chain that comes back ends. */
    @Test
    void everythingAFailureWrapsIsSeenOnce() {
        JMSException outer = new JMSException("outer");
        IOException cause = new IOException("cause");
        JMSException linked = new JMSException("linked");
        outer.initCause(cause);
        outer.setLinkedException(linked);
        linked.setLinkedException(outer); // back to the start
        assertThat(Failures.chain(outer)).containsExactly(outer, cause, linked);
        assertThat(Failures.find(outer, JMSException.class)).isSameAs(outer);
        assertThat(Failures.causedBy(linked, IOException.class)).isTrue();
    }
}
