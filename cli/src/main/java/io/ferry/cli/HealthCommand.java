package io.ferry.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.ferry.core.provider.BrokerUrls;
import io.ferry.health.HealthCheck;
import io.ferry.health.HealthCheckException;
import io.ferry.health.HealthReport;
import io.ferry.health.HealthReportFiles;
import io.ferry.health.HealthReportText;
import io.ferry.runtime.management.ManagementClient;


/**
 * {@code ferry health --url http://host:port}: reads a running adapter's management endpoints twice,
 * a sample apart, and prints a report with findings and recommendations.
 */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = {"Checks a running adapter through its management endpoints: per-tag statistics, throughput, delivered "
                + "and rejected messages, dropped events, reconnections, channel states, busy workers, and findings "
                + "with recommendations. Reads everything twice, --sample apart. Exit codes: 0 no findings, 1 findings, "
                + "2 bad input (a --json or --html path that cannot be written among it, found before the sample), "
                + "3 the adapter cannot be read (unreachable, an unknown host, 401, not a Ferry management endpoint)."})
public final class HealthCommand implements Callable<Integer> {

    public static final int EXIT_HEALTHY = 0;
    public static final int EXIT_FINDINGS = 1;
    public static final int EXIT_BAD_INPUT = ExitCodes.BAD_INPUT;
    public static final int EXIT_UNREACHABLE = 3;

    @Option(names = "--url", required = true, description = "the adapter's management URL, e.g. http://127.0.0.1:8091")
    String url;

    @Option(names = "--user", description = "user for basic authentication (the adapter's FERRY_MANAGEMENT_USER)")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR", defaultValue = "FERRY_MANAGEMENT_PASSWORD",
            description = "environment variable holding the password (default ${DEFAULT-VALUE}); used with --user")
    String passwordVariable;

    private static final Duration LONGEST_SAMPLE = Duration.ofDays(7);

    @Option(names = "--sample", defaultValue = "10s", converter = DurationConverter.class,
            description = "time between the two readings, e.g. 10s or 1m (default ${DEFAULT-VALUE})")
    Duration sample;

    @Option(names = "--json", description = "also write the report as JSON (ferry compare reads it)")
    Path json;

    @Option(names = "--html", description = "also write the report as an HTML page with charts (opens offline)")
    Path html;

    @Override
    public Integer call() {
        try {
            HealthReport report = new HealthCheck(client()).run(sample);
            System.out.print(HealthReportText.format(report));
            System.out.flush();
            HealthReportFiles.write(report, json, html);
            return report.findings().isEmpty() ? EXIT_HEALTHY : EXIT_FINDINGS;
        } catch (HealthCheckException e) {
            System.err.println("ferry health: " + e.getMessage());
            return exitCode(e.reason());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("ferry health: interrupted");
            return EXIT_UNREACHABLE;
        }
    }

    static int exitCode(HealthCheckException.Reason reason) {
        return switch (reason) {
            case BAD_INPUT -> EXIT_BAD_INPUT;
            case UNREACHABLE -> EXIT_UNREACHABLE;
        };
    }

    ManagementClient client() {
        if (sample.isNegative() || sample.isZero()) {
            throw badInput("--sample must be positive");
        }
        if (sample.compareTo(LONGEST_SAMPLE) > 0) {
            // Far beyond any check; a sample in years would overflow the clock's nanoseconds after the first reading.
            throw badInput("--sample must be at most " + LONGEST_SAMPLE.toHours() + "h");
        }
        if (json != null && html != null && json.toAbsolutePath().normalize().equals(html.toAbsolutePath().normalize())) {
            throw badInput("--json and --html name the same file, " + json + ": the page would overwrite the JSON");
        }
        URI uri;
        String shown = BrokerUrls.masked(url); // a password typed into the URL is never printed
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw badInput("--url " + shown + " is not a URL");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw badInput("--url " + shown + ": write it like http://127.0.0.1:8091");
        }
        if (uri.getRawUserInfo() != null) {
            // The JDK's client sends no user information from a URL, and the URL goes into the report.
            throw badInput("--url " + shown + ": give the user with --user and the password in $" + passwordVariable + ", not in the URL");
        }
        String password = null;
        if (user != null) {
            password = System.getenv(passwordVariable);
            if (password == null) {
                throw badInput("--user " + user + " needs the password in $" + passwordVariable
                        + " (or name another variable with --password-env)");
            }
        }
        HealthReportFiles.checkWritable(json, "--json");
        HealthReportFiles.checkWritable(html, "--html");
        return new ManagementClient(uri, user, password);
    }

    private static HealthCheckException badInput(String message) {
        return new HealthCheckException(HealthCheckException.Reason.BAD_INPUT, message);
    }
}
