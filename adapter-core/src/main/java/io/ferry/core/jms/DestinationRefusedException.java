package io.ferry.core.jms;

import jakarta.jms.JMSException;

/**
 * The broker would not let a consumer or producer be opened on a destination (it does not exist, the user may not use
 * it, or it was declared otherwise), its connection fine: no loss, so the connection stays and no other worker on it
 * is disturbed.
 */
final class DestinationRefusedException extends JMSException {

    DestinationRefusedException(JMSException refusal) {
        super(refusal.getMessage(), refusal.getErrorCode());
        setLinkedException(refusal);
        initCause(refusal);
    }
}
