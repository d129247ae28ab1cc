package io.ferry.workflow;

import io.ferry.api.FerryMessage;
import io.ferry.core.MessageRejectedException;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;

/** What a workflow does with one message, using the worker's own producer. */
@FunctionalInterface
interface MessageHandler {

    void handle(FerryMessage message, Producer producer) throws MessageRejectedException, ProduceException;
}
