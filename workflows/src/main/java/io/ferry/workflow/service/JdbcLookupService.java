package io.ferry.workflow.service;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
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

    private final String id;
    private final HikariDataSource pool;
    private final String query;
    private final List<String> parameterKeys;
    private final int queryTimeoutSeconds;

    public JdbcLookupService(String id, HikariDataSource pool, String query, List<String> parameterKeys, int queryTimeoutSeconds) {
        this.id = id;
        this.pool = pool;
        this.query = query;
        this.parameterKeys = List.copyOf(parameterKeys);
        this.queryTimeoutSeconds = queryTimeoutSeconds;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) throws ServiceException {
        Object[] parameters = parametersOf(message);
        try (Connection connection = pool.getConnection();
             PreparedStatement statement = connection.prepareStatement(query)) {
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
        } catch (SQLException e) {
            throw new ServiceException("service '" + id + "': lookup failed for " + describe(parameters)
                    + " (message " + message.id() + "): " + e.getMessage(), e);
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
