package io.ferry.core;

import io.ferry.profiling.ProfiledComponent;

/**
 * The names Ferry's figures are kept under: every profiling tag and counter, written once here and
 * used both by the methods that are timed ({@code @Profiled(tag = ProfilingTags.PRODUCE)}) and by
 * whatever reads the figures back (the perf run's summary, the health check's findings). Tags ending
 * in {@value ProfiledComponent#ID_PLACEHOLDER} are templates: the aspect puts the workflow's or the
 * service's id in its place ({@link #withId}). The names follow Interlok's perf test.
 */
public final class ProfilingTags {

    /** One message sent to the target, inside its batch's transaction. */
    public static final String PRODUCE = "PtpProducer.produce()";
    /** A batch's transaction committed on the target: the remote broker's durable write. */
    public static final String COMMIT = "PtpProducer.commit()";
    /** One message through a StandardWorkflow: services, produce and lifecycle event. */
    public static final String STANDARD_WORKFLOW = "StandardWorkflow(" + ProfiledComponent.ID_PLACEHOLDER + ")";
    /** A StandardWorkflow handing one message's lifecycle event to the publisher. */
    public static final String STANDARD_WORKFLOW_EVENT = "StandardWorkflow.sendMessageLifecycleEvent()";
    public static final String POOLING_WORKFLOW = "PoolingWorkflow(" + ProfiledComponent.ID_PLACEHOLDER + ")";
    public static final String POOLING_WORKFLOW_EVENT = "PoolingWorkflow.sendMessageLifecycleEvent()";
    /** One service applied to one message. */
    public static final String SERVICE = "Service(" + ProfiledComponent.ID_PLACEHOLDER + ")";
    /** The events publisher sending one batch of events to the events destination, off the workers' path. */
    public static final String EVENTS_SEND = "LifecycleEventPublisher.send()";
    /** Counter: events published. */
    public static final String EVENTS_PUBLISHED = "LifecycleEventPublisher.published";
    /** Counter: events dropped (queue full, destination slow or down). */
    public static final String EVENTS_DROPPED = "LifecycleEventPublisher.dropped";

    private ProfilingTags() {
    }

    /** A template's tag for one id: {@code withId(STANDARD_WORKFLOW, "orders")} is {@code StandardWorkflow(orders)}. */
    public static String withId(String template, String id) {
        return template.replace(ProfiledComponent.ID_PLACEHOLDER, id);
    }

    /** Whether {@code tag} is {@code template} with some id in its place. */
    public static boolean matches(String template, String tag) {
        int at = template.indexOf(ProfiledComponent.ID_PLACEHOLDER);
        if (at < 0) {
            return template.equals(tag);
        }
        String prefix = template.substring(0, at);
        String suffix = template.substring(at + ProfiledComponent.ID_PLACEHOLDER.length());
        return tag.length() > prefix.length() + suffix.length() && tag.startsWith(prefix) && tag.endsWith(suffix);
    }
}
