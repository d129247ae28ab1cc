package io.ferry.api;

/**
 * One step of a workflow: it may read and change the message's payload and metadata. A service
 * that throws {@link ServiceException} rejects the message (it is not produced).
 * Services are shared by a workflow's workers, so they must be thread-safe.
 */
public interface Service {

    /** The id this service is known by in configuration and in profiling tags. */
    String id();

    void apply(FerryMessage message) throws ServiceException;
}
