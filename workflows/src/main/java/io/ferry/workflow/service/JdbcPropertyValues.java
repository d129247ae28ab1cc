package io.ferry.workflow.service;

import static java.time.format.DateTimeFormatter.ISO_LOCAL_DATE_TIME;
import static java.time.format.DateTimeFormatter.ISO_LOCAL_TIME;
import static java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME;
import static java.time.format.DateTimeFormatter.ISO_OFFSET_TIME;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAccessor;
import java.util.UUID;

/**
 * Turns a JDBC column value into a value a JMS message property can hold (String, Integer, Long,
 * Double, Float, Short, Byte, Boolean). Exact decimals become plain Strings, so money keeps every
 * digit; dates and times become ISO-8601 Strings. Binary and structured values (BLOB, CLOB, arrays,
 * JSON objects) are refused rather than turned into an unreadable {@code toString()}: cast them in
 * the query.
 */
final class JdbcPropertyValues {

    private JdbcPropertyValues() {
    }

    /** The column's value as a property value, or {@code null} for SQL NULL. */
    static Object read(ResultSet row, ResultSetMetaData columns, int column) throws SQLException {
        Object value = hasTimeZone(columns, column) ? readWithOffset(row, columns, column) : row.getObject(column);
        if (value == null
                || value instanceof String || value instanceof Integer || value instanceof Long
                || value instanceof Double || value instanceof Float || value instanceof Short
                || value instanceof Byte || value instanceof Boolean) {
            return value;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return ISO_LOCAL_DATE_TIME.format(timestamp.toLocalDateTime());
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate().toString();
        }
        if (value instanceof java.sql.Time time) {
            return ISO_LOCAL_TIME.format(time.toLocalTime());
        }
        if (value instanceof TemporalAccessor temporal) {
            return iso(temporal);
        }
        if (value instanceof BigInteger || value instanceof UUID || value instanceof Character) {
            return value.toString();
        }
        throw new SQLDataException("column '" + columns.getColumnLabel(column) + "' (" + columns.getColumnTypeName(column)
                + ") holds a " + value.getClass().getName() + ", which a message property cannot carry;"
                + " cast it in the query, e.g. CAST(" + columns.getColumnLabel(column) + " AS VARCHAR)");
    }

    /** ISO-8601 that always shows the seconds (java.time's toString() drops ":00"). */
    private static String iso(TemporalAccessor temporal) {
        if (temporal instanceof LocalDateTime local) {
            return ISO_LOCAL_DATE_TIME.format(local);
        }
        if (temporal instanceof LocalTime local) {
            return ISO_LOCAL_TIME.format(local);
        }
        if (temporal instanceof OffsetDateTime || temporal instanceof ZonedDateTime) {
            return ISO_OFFSET_DATE_TIME.format(temporal);
        }
        if (temporal instanceof OffsetTime) {
            return ISO_OFFSET_TIME.format(temporal);
        }
        return temporal.toString(); // LocalDate and Instant print ISO-8601 already
    }

    /**
     * The java.sql types drop a time zone's offset; read such columns as java.time values instead.
     * PostgreSQL reports timestamptz and timetz as plain TIMESTAMP and TIME, hence the type names.
     */
    private static boolean hasTimeZone(ResultSetMetaData columns, int column) throws SQLException {
        int type = columns.getColumnType(column);
        String name = columns.getColumnTypeName(column);
        return type == Types.TIMESTAMP_WITH_TIMEZONE || type == Types.TIME_WITH_TIMEZONE
                || "timestamptz".equalsIgnoreCase(name) || "timetz".equalsIgnoreCase(name);
    }

    private static Object readWithOffset(ResultSet row, ResultSetMetaData columns, int column) throws SQLException {
        int type = columns.getColumnType(column);
        if (type == Types.TIME || type == Types.TIME_WITH_TIMEZONE) {
            return row.getObject(column, OffsetTime.class);
        }
        return row.getObject(column, OffsetDateTime.class);
    }
}
