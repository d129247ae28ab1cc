package io.ferry.profiling;

import java.util.concurrent.ConcurrentHashMap;

import org.perf4j.aop.Profiled;

/**
 * The timers behind one {@code @Profiled} method: resolved from the annotation once per method, and
 * once per id for tags with the {@code {id}} placeholder, so the per-call work is a field read or a
 * map lookup, never string building.
 */
final class ProfiledTag {

    static final String FAILURE_SUFFIX = ".failure";

    private final TimingRegistry registry;
    private final String template;
    private final boolean failuresSeparately;
    private final TimerPair fixed;
    private final ConcurrentHashMap<String, TimerPair> byId = new ConcurrentHashMap<>();

    private ProfiledTag(TimingRegistry registry, String template, boolean failuresSeparately) {
        this.registry = registry;
        this.template = template;
        this.failuresSeparately = failuresSeparately;
        this.fixed = template.contains(ProfiledComponent.ID_PLACEHOLDER) ? null : pairFor(template);
    }

    /** As perf4j: the annotation's tag, or the method's name when the tag is left at its default. */
    static ProfiledTag of(Profiled profiled, String methodName, TimingRegistry registry) {
        String tag = Profiled.DEFAULT_TAG_NAME.equals(profiled.tag()) ? methodName : profiled.tag();
        return new ProfiledTag(registry, tag, profiled.logFailuresSeparately());
    }

    Timer timer(Object self, boolean succeeded) {
        TimerPair pair = fixed;
        if (pair == null) {
            pair = self instanceof ProfiledComponent component ? pairForId(component.profilingId()) : pairForId(null);
        }
        return succeeded ? pair.success : pair.failure;
    }

    private TimerPair pairForId(String id) {
        String key = id == null ? ProfiledComponent.ID_PLACEHOLDER : id;
        TimerPair pair = byId.get(key);
        return pair != null ? pair : byId.computeIfAbsent(key,
                k -> pairFor(template.replace(ProfiledComponent.ID_PLACEHOLDER, k)));
    }

    private TimerPair pairFor(String tag) {
        Timer success = registry.timer(tag);
        return new TimerPair(success, failuresSeparately ? registry.timer(tag + FAILURE_SUFFIX) : success);
    }

    private record TimerPair(Timer success, Timer failure) {
    }
}
