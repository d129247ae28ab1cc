package io.ferry.workflow;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import io.ferry.core.ProfilingTags;

/** The kinds of workflow, as configuration names them, and the profiling tags each is timed under. */
public enum WorkflowType {

    /** {@link StandardWorkflow}: one thread handles a batch's messages in turn. */
    STANDARD("StandardWorkflow", ProfilingTags.STANDARD_WORKFLOW, ProfilingTags.STANDARD_WORKFLOW_EVENT),
    /** {@link PoolingWorkflow}: a pool of threads handles a batch's messages in parallel. */
    POOLING("PoolingWorkflow", ProfilingTags.POOLING_WORKFLOW, ProfilingTags.POOLING_WORKFLOW_EVENT);

    private final String className;
    private final String tagTemplate;
    private final String eventTag;

    WorkflowType(String className, String tagTemplate, String eventTag) {
        this.className = className;
        this.tagTemplate = tagTemplate;
        this.eventTag = eventTag;
    }

    /** The name in configuration and in perf case names: {@code standard}, {@code pooling}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The workflow's class name, as its tags begin: {@code StandardWorkflow}. */
    public String className() {
        return className;
    }

    /** The tag a workflow of this type with this id is timed under, e.g. {@code PoolingWorkflow(orders)}. */
    public String tag(String workflowId) {
        return ProfilingTags.withId(tagTemplate, workflowId);
    }

    /** The tag of handing a lifecycle event to the publisher. */
    public String eventTag() {
        return eventTag;
    }

    /** The type whose workflow tag this is, if it is one. */
    public static Optional<WorkflowType> ofTag(String tag) {
        return Arrays.stream(values()).filter(type -> ProfilingTags.matches(type.tagTemplate, tag)).findFirst();
    }

    /** The type named so in configuration ({@code standard}, {@code pooling}). */
    public static Optional<WorkflowType> ofConfigName(String name) {
        return Arrays.stream(values()).filter(type -> type.configName().equals(name)).findFirst();
    }
}
