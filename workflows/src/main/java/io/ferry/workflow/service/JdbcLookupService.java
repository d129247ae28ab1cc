package io.ferry.workflow.service;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

import com.zaxxer.hikari.HikariDataSource;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

/**
 * Enriches a message's metadata from a SQL query: the values of metadata keys bind to the query's
 * {@code ?} parameters in order, and the first row's columns are added to the metadata under their
 * lower-case labels, as message property types (see {@link JdbcPropertyValues}). SQL NULLs are left
 * out. No row, a missing parameter key, any SQL error or a query past its timeout rejects the message.
 *
 * <p>Connections come from a pool shared by the workers; {@link #close()} closes it.
 */
public final class JdbcLookupService implements Service, AutoCloseable {

    /** How much longer than the query's bound the connection waits for the database before it gives the connection up. */
    static final Duration NETWORK_MARGIN = Duration.ofSeconds(10);

    private final String id;
    private final HikariDataSource pool;
    private final String query;
    private final List<String> parameterKeys;
    /** The query's own bound, in JDBC's whole seconds: the driver asks the database to cancel it. */
    private final int queryTimeoutSeconds;
    /**
     * The connection's bound on any wait for the database: a cancel goes to the database too, and one that stopped
     * answering (a host gone, a network cut) never sees it; then the driver gives the connection up.
     */
    private final int networkTimeoutMillis;

    public JdbcLookupService(String id, HikariDataSource pool, String query, List<String> parameterKeys, Duration queryTimeout) {
        this.id = id;
        this.pool = pool;
        this.query = query;
        this.parameterKeys = List.copyOf(parameterKeys);
        this.queryTimeoutSeconds = (int) Math.min(Integer.MAX_VALUE, Math.max(1, (queryTimeout.toMillis() + 999) / 1000));
        this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, queryTimeout.plus(NETWORK_MARGIN).toMillis());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) throws ServiceException {
        Object[] parameters = parametersOf(message);
        try (Connection connection = pool.getConnection()) {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis); // the pool sets its own back on return
            lookUp(connection, parameters, message);
        } catch (SQLException e) {
            throw new ServiceException("service '" + id + "': lookup failed for " + describe(parameters)
                    + " (message " + message.id() + "): " + e.getMessage(), e);
        }
    }

    private void lookUp(Connection connection, Object[] parameters, FerryMessage message) throws SQLException, ServiceException {
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setMaxRows(1);
            statement.setQueryTimeout(queryTimeoutSeconds);
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new ServiceException("service '" + id + "': no row for " + describe(parameters)
                            + " (message " + message.id() + ")");
                }
                // Read the whole row before touching the message, so a bad column leaves it unchanged.
                message.metadata().putAll(firstRow(rows));
            }
        }
    }

    private Object[] parametersOf(FerryMessage message) throws ServiceException {
        Object[] values = new Object[parameterKeys.size()];
        for (int i = 0; i < values.length; i++) {
            String key = parameterKeys.get(i);
            values[i] = message.metadata().get(key);
            if (values[i] == null) {
                throw new ServiceException("service '" + id + "': message " + message.id()
                        + " has no metadata key '" + key + "' (query parameter " + (i + 1) + ")");
            }
        }
        return values;
    }

    private static Map<String, Object> firstRow(ResultSet rows) throws SQLException {
        ResultSetMetaData columns = rows.getMetaData();
        Map<String, Object> values = new LinkedHashMap<>();
        for (int column = 1; column <= columns.getColumnCount(); column++) {
            Object value = JdbcPropertyValues.read(rows, columns, column);
            if (value != null) {
                values.put(columns.getColumnLabel(column).toLowerCase(Locale.ROOT), value);
            }
        }
        return values;
    }

    private String describe(Object[] parameters) {
        if (parameters.length == 0) {
            return "query without parameters";
        }
        StringJoiner described = new StringJoiner(", ");
        for (int i = 0; i < parameters.length; i++) {
            described.add(parameterKeys.get(i) + "=" + parameters[i]);
        }
        return described.toString();
    }

    /** Closes the connection pool. */
    @Override
    public void close() {
        pool.close();
    }
}
