package io.ferry.profiling;

/**
 * Implemented by objects whose {@code @Profiled} tags contain the placeholder {@value #ID_PLACEHOLDER}:
 * the placeholder is replaced by {@link #profilingId()}, so one annotated method reports per instance,
 * for example {@code @Profiled(tag = "StandardWorkflow({id})")} gives {@code StandardWorkflow(local-to-remote)}.
 *
 * <p>The resolved tag is computed once per id and cached; the id should not change while the object lives.
 * On an object that does not implement this interface, the tag is used as written.
 */
public interface ProfiledComponent {

    String ID_PLACEHOLDER = "{id}";

    String profilingId();
}
