package io.ferry.runtime.management;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.ferry.profiling.StatisticsFile;
import io.ferry.profiling.StatisticsJson;
import io.ferry.profiling.StatisticsSnapshot;
import io.ferry.profiling.TimingRegistry;

/**
 * {@code /actuator/profiling}: the profiling statistics as JSON (cumulative and the last closed
 * time slice), as perf4j's table and the microsecond table ({@code /cumulative}, {@code /last-slice}),
 * and DELETE to start counting afresh.
 */
@Endpoint(id = "profiling")
final class ProfilingEndpoint {

    /** The JSON answer: both periods in {@link StatisticsJson}'s form; {@code lastSlice} is null before the first slice closes. */
    record Figures(StatisticsJson.SnapshotFigures cumulative, StatisticsJson.SnapshotFigures lastSlice) {
    }

    private final TimingRegistry registry;
    private final StatisticsJson json = new StatisticsJson();

    ProfilingEndpoint(TimingRegistry registry) {
        this.registry = registry;
    }

    @ReadOperation
    Figures figures() {
        return new Figures(json.figures(registry.cumulative()), registry.lastSlice().map(json::figures).orElse(null));
    }

    @ReadOperation(produces = "text/plain")
    WebEndpointResponse<String> tables(@Selector String period) {
        StatisticsSnapshot snapshot;
        switch (period) {
            case "cumulative" -> snapshot = registry.cumulative();
            case "last-slice" -> {
                snapshot = registry.lastSlice().orElse(null);
                if (snapshot == null) {
                    return new WebEndpointResponse<>("no time slice has closed yet (ferry.profiling.time-slice)\n",
                            WebEndpointResponse.STATUS_NOT_FOUND);
                }
            }
            default -> {
                return new WebEndpointResponse<>("unknown period '" + period + "' (known: cumulative, last-slice)\n",
                        WebEndpointResponse.STATUS_BAD_REQUEST);
            }
        }
        return new WebEndpointResponse<>(StatisticsFile.tables(snapshot));
    }

    @DeleteOperation
    void reset() {
        registry.reset();
    }
}
