package io.ferry.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.ferry.profiling.StatisticsJson;

/**
 * Per-tag statistics read from any file Ferry writes them to: {@code ferry run --stats-file} (the
 * figures themselves), {@code /actuator/profiling} saved to a file (its cumulative figures), or
 * {@code ferry health --json} (the cumulative figures at the end of its sample).
 */
public record FiguresFile(Path path, String kind, StatisticsJson.SnapshotFigures figures) {

    // Files from a newer Ferry may carry more per-tag figures; the known ones still compare.
    private static final JsonMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public static FiguresFile read(Path path) {
        String text;
        try {
            text = Files.readString(path);
        } catch (NoSuchFileException e) {
            throw bad(path, "no such file");
        } catch (IOException e) {
            throw bad(path, "cannot read it: " + e.getMessage());
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JacksonException e) {
            throw bad(path, "not JSON (" + e.getOriginalMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw bad(path, "not a JSON object");
        }
        if (root.path("tags").isArray()) {
            return new FiguresFile(path, "statistics", figures(path, root));
        }
        if (root.path("cumulative").path("tags").isArray()) {
            return new FiguresFile(path, "profiling endpoint, cumulative", figures(path, root.path("cumulative")));
        }
        if (root.path("profiling").path("tags").isArray()) {
            return new FiguresFile(path, "ferry health", figures(path, root.path("profiling")));
        }
        throw bad(path, "no Ferry statistics in it (expected the JSON of ferry run --stats-file, /actuator/profiling "
                + "or ferry health --json)");
    }

    private static StatisticsJson.SnapshotFigures figures(Path path, JsonNode node) {
        try {
            return statistics(node);
        } catch (IllegalArgumentException e) {
            throw bad(path, e.getMessage());
        }
    }

    /**
     * The per-tag statistics in {@code node}, from a file or from a running adapter's {@code /actuator/profiling}.
     *
     * @throws IllegalArgumentException why they do not read as Ferry's
     */
    static StatisticsJson.SnapshotFigures statistics(JsonNode node) {
        StatisticsJson.SnapshotFigures figures;
        try {
            figures = JSON.treeToValue(node, StatisticsJson.SnapshotFigures.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("unreadable statistics (" + e.getOriginalMessage() + ")", e);
        }
        for (StatisticsJson.TagFigures tag : figures.tags()) {
            if (tag == null || tag.tag() == null) {
                throw new IllegalArgumentException("a tag without a name");
            }
        }
        return figures;
    }

    private static HealthCheckException bad(Path path, String why) {
        return new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, path + ": " + why);
    }
}
