package io.ferry.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import io.ferry.health.FiguresComparison;
import io.ferry.health.FiguresFile;
import io.ferry.health.HealthCheckException;


/** {@code ferry compare before.json after.json}: two runs' per-tag statistics side by side. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares two files of per-tag statistics: per tag, count, mean, p50, p90, p99 and max before, after, "
                + "and after/before. Reads the JSON of ferry run --stats-file, of /actuator/profiling (its cumulative "
                + "figures) and of ferry health --json. Exit codes: 0 compared, 2 bad input."})
public final class CompareCommand implements Callable<Integer> {

    public static final int EXIT_COMPARED = 0;
    public static final int EXIT_BAD_INPUT = ExitCodes.BAD_INPUT;

    @Parameters(index = "0", paramLabel = "BEFORE", description = "statistics before the change")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER", description = "statistics after the change")
    Path after;

    @Override
    public Integer call() {
        try {
            String table = FiguresComparison.format(FiguresFile.read(before), FiguresFile.read(after));
            System.out.print(table);
            System.out.flush();
            return EXIT_COMPARED;
        } catch (HealthCheckException e) {
            System.err.println("ferry compare: " + e.getMessage());
            return HealthCommand.exitCode(e.reason());
        }
    }
}
