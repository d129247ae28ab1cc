package io.ferry.runtime.management;

/** A management port could not be read as asked; the message is one line naming the URL and what went wrong. */
public final class ManagementException extends RuntimeException {

    /** What went wrong, for callers that answer differently to each. */
    public enum Kind {
        /** No answer, a refused connection, or an unexpected status. */
        UNREACHABLE,
        /** 401: credentials missing or refused. */
        UNAUTHORIZED,
        /** Something answered, but not a Ferry management port. */
        NOT_FERRY,
        /** The URL itself cannot be requested. */
        BAD_URL
    }

    private final Kind kind;

    public ManagementException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
