package io.ferry.workflow.service;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/**
 * {@code jdbc-lookup}: settings {@code url} and {@code query} (required), {@code user},
 * {@code password}, {@code parameters} (comma-separated metadata keys, one per {@code ?} in the
 * query), {@code pool-size} (default 4) and {@code query-timeout} (default {@code 30s}, at least
 * {@code 1s}: a query that takes longer is cancelled and rejects its message, and a database that
 * stops answering at all is given up a little later, so that neither holds the channel for ever).
 *
 * <p>The pool connects lazily: the adapter starts while the database is down, and messages are
 * rejected until it is back. A URL no JDBC driver on the class path accepts stops start-up.
 */
public final class JdbcLookupServiceFactory implements ServiceFactory {

    public static final String TYPE = "jdbc-lookup";
    static final String URL = "url";
    static final String USER = "user";
    static final String PASSWORD = "password";
    static final String QUERY = "query";
    static final String PARAMETERS = "parameters";
    static final String POOL_SIZE = "pool-size";
    static final int DEFAULT_POOL_SIZE = 4;
    static final String QUERY_TIMEOUT = "query-timeout";
    static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        Lookup lookup = read(id, settings);
        HikariDataSource pool = new HikariDataSource(poolConfig(id, lookup.url(), lookup.user(), lookup.password(), lookup.poolSize()));
        return new JdbcLookupService(id, pool, lookup.query(), lookup.parameterKeys(), lookup.queryTimeout());
    }

    /** The settings alone: the pool, which would start its threads, is made by {@link #create}. */
    @Override
    public void check(String id, Map<String, String> settings) {
        read(id, settings);
    }

    private record Lookup(String url, String user, String password, String query, List<String> parameterKeys, int poolSize,
                          Duration queryTimeout) {
    }

    private static Lookup read(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(URL, USER, PASSWORD, QUERY, PARAMETERS, POOL_SIZE, QUERY_TIMEOUT));
        String url = checked.required(URL);
        requireDriverFor(checked, url);
        String query = checked.required(QUERY);
        String parameters = checked.optional(PARAMETERS);
        List<String> parameterKeys = parameters == null || parameters.isBlank()
                ? List.of()
                : CommaSeparated.parse(checked, PARAMETERS, parameters);
        int poolSize = checked.positiveInt(POOL_SIZE, DEFAULT_POOL_SIZE);
        Duration queryTimeout = checked.duration(QUERY_TIMEOUT, DEFAULT_QUERY_TIMEOUT);
        if (queryTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw checked.invalid(QUERY_TIMEOUT, "must be at least 1s (JDBC counts whole seconds), not '" + settings.get(QUERY_TIMEOUT).trim() + "'");
        }
        return new Lookup(url, checked.optional(USER), checked.optional(PASSWORD), query, parameterKeys, poolSize, queryTimeout);
    }

    private static void requireDriverFor(ServiceSettings settings, String url) {
        try {
            DriverManager.getDriver(url);
        } catch (SQLException e) {
            // Only the URL's kind: drivers write credentials in forms of their own (Oracle's scott/tiger@host).
            throw settings.invalid(URL, "is not accepted by any JDBC driver on the class path (a " + kind(url) + " URL)");
        }
    }

    /** {@code jdbc:postgresql:} of {@code jdbc:postgresql://h/db?password=x}: what names the driver, and nothing after it. */
    private static String kind(String url) {
        int first = url.indexOf(':');
        int second = first < 0 ? -1 : url.indexOf(':', first + 1);
        return "'" + url.substring(0, (second < 0 ? first : second) + 1) + "'";
    }

    private static HikariConfig poolConfig(String id, String url, String user, String password, int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("ferry-" + id);
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSize);
        // Start without a connection: an unreachable database rejects messages, it does not stop the adapter.
        config.setInitializationFailTimeout(-1);
        return config;
    }
}
