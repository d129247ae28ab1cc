package io.ferry.health;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import io.ferry.profiling.StatisticsJson.TagFigures;

/** Two files' statistics side by side: per tag and figure, before, after, and after / before. */
public final class FiguresComparison {

    private record Figure(String name, ToDoubleFunction<TagFigures> value, String format) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("count", t -> t.count(), "%,.0f"),
            new Figure("mean us", TagFigures::meanUs, "%,.1f"),
            new Figure("p50 us", TagFigures::p50Us, "%,.1f"),
            new Figure("p90 us", TagFigures::p90Us, "%,.1f"),
            new Figure("p99 us", TagFigures::p99Us, "%,.1f"),
            new Figure("max us", TagFigures::maxUs, "%,.1f"));

    private static final String ROW = "%-50s %14s %14s %13s%n";

    private FiguresComparison() {
    }

    public static String format(FiguresFile before, FiguresFile after) {
        Map<String, TagFigures> beforeTags = byTag(before.figures().tags());
        Map<String, TagFigures> afterTags = byTag(after.figures().tags());
        Set<String> tags = new LinkedHashSet<>(beforeTags.keySet());
        tags.addAll(afterTags.keySet());
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "before: %s (%s, %s - %s)%n", before.path(), before.kind(),
                before.figures().start(), before.figures().end()));
        out.append(String.format(Locale.ROOT, "after:  %s (%s, %s - %s)%n%n", after.path(), after.kind(),
                after.figures().start(), after.figures().end()));
        out.append(String.format(Locale.ROOT, ROW, "Tag / figure", "before", "after", "after/before"));
        for (String tag : tags) {
            TagFigures b = beforeTags.get(tag);
            TagFigures a = afterTags.get(tag);
            String mark = b == null ? "   (only in after)" : a == null ? "   (only in before)" : "";
            out.append(tag).append(mark).append(System.lineSeparator());
            for (Figure figure : FIGURES) {
                out.append(String.format(Locale.ROOT, ROW, "  " + figure.name(), value(figure, b), value(figure, a), ratio(figure, b, a)));
            }
        }
        return out.toString();
    }

    private static Map<String, TagFigures> byTag(List<TagFigures> tags) {
        Map<String, TagFigures> byTag = new LinkedHashMap<>();
        tags.forEach(tag -> byTag.put(tag.tag(), tag));
        return byTag;
    }

    private static String value(Figure figure, TagFigures tag) {
        return tag == null ? "-" : String.format(Locale.ROOT, figure.format(), figure.value().applyAsDouble(tag));
    }

    private static String ratio(Figure figure, TagFigures before, TagFigures after) {
        if (before == null || after == null || figure.value().applyAsDouble(before) == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.3f", figure.value().applyAsDouble(after) / figure.value().applyAsDouble(before));
    }
}
