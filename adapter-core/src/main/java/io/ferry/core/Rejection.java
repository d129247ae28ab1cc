package io.ferry.core;

import io.ferry.core.provider.Failures;

/** Why a message goes to the error destination: the stage, the exception, and how often it was tried. */
public record Rejection(String stage, String exceptionClass, String reason, int attempts) {

    public static Rejection of(MessageRejectedException e, int attempts) {
        Throwable reason = e.reason();
        return new Rejection(e.stage(), reason.getClass().getName(), Failures.message(reason), attempts);
    }
}
