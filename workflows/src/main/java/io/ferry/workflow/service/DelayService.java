package io.ferry.workflow.service;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

/** Holds each message for a fixed time, to stand in for real work in performance runs. */
public final class DelayService implements Service {

    private final String id;
    private final long delayNanos;

    public DelayService(String id, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        this.id = id;
        this.delayNanos = delay.toNanos();
    }

    @Override
    public String id() {
        return id;
    }

    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    @Override
    public void apply(FerryMessage message) throws ServiceException {
        long deadline = System.nanoTime() + delayNanos;
        // parkNanos may return early (spuriously or on interrupt), so park until the deadline has passed.
        for (long left = delayNanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                // isInterrupted() leaves the flag set, so the worker still sees it was asked to stop.
                throw new ServiceException("service '" + id + "': interrupted while delaying message " + message.id());
            }
        }
    }
}
