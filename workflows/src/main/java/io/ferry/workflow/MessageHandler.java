package io.ferry.workflow;

import io.ferry.core.FerryMessage;
import io.ferry.core.ProduceException;
import io.ferry.core.Producer;
import io.ferry.core.ServiceException;

/** What a workflow does with one message, using the worker's own producer. */
@FunctionalInterface
interface MessageHandler {

    void handle(FerryMessage message, Producer producer) throws ServiceException, ProduceException;
}
