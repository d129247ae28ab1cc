package io.ferry.profiling;

import java.util.concurrent.ConcurrentHashMap;

import org.aspectj.lang.JoinPoint;
import org.perf4j.aop.Profiled;

/**
 * Times every method annotated with perf4j's {@code @Profiled} and records the duration into
 * {@link TimingRegistry#global()}. Woven at compile time by ajc; perf4j's own aspect and logging are
 * not used. Per call: two {@code System.nanoTime()} reads, one identity-keyed map lookup, and a
 * lock-free record. No logging, no formatting, no allocation.
 *
 * <p>A call that throws is recorded under {@code <tag>.failure} when the annotation says
 * {@code logFailuresSeparately = true}, otherwise under its tag, as perf4j does.
 */
public aspect ProfiledTimingAspect {

    private final ConcurrentHashMap<JoinPoint.StaticPart, ProfiledTag> tags = new ConcurrentHashMap<>();

    Object around(Profiled profiled, Object self) :
            execution(!static * *(..)) && @annotation(profiled) && this(self) {
        ProfiledTag tag = tagOf(thisJoinPointStaticPart, profiled);
        long start = System.nanoTime();
        boolean succeeded = false;
        try {
            Object result = proceed(profiled, self);
            succeeded = true;
            return result;
        } finally {
            tag.timer(self, succeeded).record(System.nanoTime() - start);
        }
    }

    Object around(Profiled profiled) : execution(static * *(..)) && @annotation(profiled) {
        ProfiledTag tag = tagOf(thisJoinPointStaticPart, profiled);
        long start = System.nanoTime();
        boolean succeeded = false;
        try {
            Object result = proceed(profiled);
            succeeded = true;
            return result;
        } finally {
            tag.timer(null, succeeded).record(System.nanoTime() - start);
        }
    }

    private ProfiledTag tagOf(JoinPoint.StaticPart joinPoint, Profiled profiled) {
        ProfiledTag tag = tags.get(joinPoint);
        return tag != null ? tag : tags.computeIfAbsent(joinPoint,
                jp -> ProfiledTag.of(profiled, jp.getSignature().getName(), TimingRegistry.global()));
    }
}
