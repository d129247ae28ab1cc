package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.ServiceException;

/**
 * What jdbc-lookup does on any database: the same tests run against embedded H2 and, where one is
 * configured, a real PostgreSQL server. Each run works in a table of its own and drops it.
 */
abstract class JdbcLookupContract {

    private static final int CUSTOMERS = 50;

    /** The JDBC URL of the database under test. */
    abstract String url();

    /** The user to connect as, or {@code null}. */
    abstract String user();

    /** The password, or {@code null}. */
    abstract String password();

    final String table = "ferry_lookup_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final List<JdbcLookupService> services = new ArrayList<>();
    private Connection setup;

    @BeforeEach
    void createCustomers() throws SQLException {
        setup = DriverManager.getConnection(url(), user(), password());
        try (Statement ddl = setup.createStatement()) {
            ddl.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL,"
                    + " credit NUMERIC(12, 2), since DATE, vip BOOLEAN, visits BIGINT, rating DOUBLE PRECISION,"
                    + " last_seen TIMESTAMP, updated TIMESTAMP WITH TIME ZONE, region VARCHAR(10))");
        }
        try (PreparedStatement insert = setup.prepareStatement("INSERT INTO " + table
                + " (id, name, credit, since, vip, visits, rating, last_seen, updated, region) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int id = 1; id <= CUSTOMERS; id++) {
                insert.setInt(1, id);
                insert.setString(2, "customer-" + id);
                insert.setBigDecimal(3, new BigDecimal("1500.00").add(BigDecimal.valueOf(id)));
                insert.setObject(4, LocalDate.of(2020, 2, 29));
                insert.setBoolean(5, id % 2 == 0);
                insert.setLong(6, 10_000_000_000L + id);
                insert.setDouble(7, 4.5);
                insert.setObject(8, LocalDateTime.of(2024, 3, 1, 10, 15, 0));
                insert.setObject(9, OffsetDateTime.of(2024, 3, 1, 10, 15, 30, 0, ZoneOffset.ofHours(1)));
                insert.setNull(10, java.sql.Types.VARCHAR);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    @AfterEach
    void dropCustomers() throws SQLException {
        services.forEach(JdbcLookupService::close);
        try (Statement ddl = setup.createStatement()) {
            ddl.execute("DROP TABLE " + table);
        } finally {
            setup.close();
        }
    }

    JdbcLookupService lookup(String query, String parameters, String poolSize) {
        return lookup(query, parameters, poolSize, Map.of());
    }

    /** A query that runs for much longer than a second, with one {@code ?} (unused). */
    abstract String slowQuery();

    JdbcLookupService lookup(String query, String parameters, String poolSize, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(more);
        settings.put("url", url());
        if (user() != null) {
            settings.put("user", user());
        }
        if (password() != null) {
            settings.put("password", password());
        }
        settings.put("query", query);
        settings.put("parameters", parameters);
        settings.put("pool-size", poolSize);
        JdbcLookupService service = (JdbcLookupService) new JdbcLookupServiceFactory().create("enrich", settings);
        services.add(service);
        return service;
    }

    private JdbcLookupService customerById() {
        return lookup("SELECT name AS customer_name, credit, since, vip, visits, rating, last_seen, updated, region"
                + " FROM " + table + " WHERE id = ?", "customer-id", "4");
    }

    private static FerryMessage messageFor(Object customerId) {
        FerryMessage message = Messages.text("<order/>");
        message.metadata().put("customer-id", customerId);
        return message;
    }

    @Test
    void addsTheFirstRowsColumnsAsMessagePropertyValues() throws Exception {
        FerryMessage message = messageFor(7);

        customerById().apply(message);

        Map<String, Object> metadata = message.metadata();
        assertThat(metadata)
                .containsEntry("customer-id", 7)
                .containsEntry("customer_name", "customer-7")
                .containsEntry("credit", "1507.00")
                .containsEntry("since", "2020-02-29")
                .containsEntry("vip", false)
                .containsEntry("visits", 10_000_000_007L)
                .containsEntry("rating", 4.5)
                .containsEntry("last_seen", "2024-03-01T10:15:00") // seconds kept even when zero
                .doesNotContainKey("region"); // SQL NULL
        // Databases differ in the offset they report, never in the instant.
        assertThat(OffsetDateTime.parse((String) metadata.get("updated")).toInstant())
                .isEqualTo(OffsetDateTime.of(2024, 3, 1, 10, 15, 30, 0, ZoneOffset.ofHours(1)).toInstant());
        assertThat(message.text()).isEqualTo("<order/>");
    }

    @Test
    void bindsSeveralParametersInOrder() throws Exception {
        JdbcLookupService service = lookup("SELECT id FROM " + table + " WHERE name = ? AND id > ?", "name, min-id", "1");
        FerryMessage message = Messages.text("x");
        message.metadata().put("name", "customer-12");
        message.metadata().put("min-id", 3);

        service.apply(message);

        assertThat(message.metadata()).containsEntry("id", 12);
    }

    @Test
    void aMissingRowRejectsTheMessageAndLeavesItUnchanged() {
        FerryMessage message = messageFor(999);

        assertThatThrownBy(() -> customerById().apply(message))
                .isInstanceOf(ServiceException.class)
                .hasMessage("service 'enrich': no row for customer-id=999 (message " + message.id() + ")");
        assertThat(message.metadata()).containsOnly(Map.entry("customer-id", 999));
    }

    @Test
    void aMissingParameterKeyRejectsTheMessage() {
        FerryMessage message = Messages.text("x");

        assertThatThrownBy(() -> customerById().apply(message))
                .isInstanceOf(ServiceException.class)
                .hasMessage("service 'enrich': message " + message.id() + " has no metadata key 'customer-id' (query parameter 1)");
    }

    @Test
    void anSqlErrorRejectsTheMessage() {
        JdbcLookupService service = lookup("SELECT no_such_column FROM " + table + " WHERE id = ?", "customer-id", "1");

        assertThatThrownBy(() -> service.apply(messageFor(1)))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'enrich': lookup failed for customer-id=1 (message ")
                .hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void aQueryPastItsTimeoutIsCancelledAndRejectsTheMessage() {
        JdbcLookupService service = lookup(slowQuery(), "customer-id", "1", Map.of("query-timeout", "1s"));

        assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> assertThatThrownBy(() -> service.apply(messageFor(1)))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'enrich': lookup failed for customer-id=1 (message ")
                .hasCauseInstanceOf(SQLException.class));
    }

    @Test
    void fourThreadsLookUpConcurrentlyAndEachGetsItsOwnRow() throws Exception {
        // Fewer connections than threads, so workers also wait for one another's connections.
        JdbcLookupService service = lookup("SELECT name FROM " + table + " WHERE id = ?", "customer-id", "2");
        ExecutorService workers = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                tasks.add(() -> {
                    start.await();
                    int checked = 0;
                    for (int i = 0; i < 250; i++) {
                        int id = ThreadLocalRandom.current().nextInt(1, CUSTOMERS + 1);
                        FerryMessage message = messageFor(id);
                        service.apply(message);
                        assertThat(message.metadata()).containsEntry("name", "customer-" + id);
                        checked++;
                    }
                    return checked;
                });
            }
            List<Future<Integer>> results = new ArrayList<>();
            for (Callable<Integer> task : tasks) {
                results.add(workers.submit(task));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> result : results) {
                total += result.get(); // rethrows a worker's failed assertion
            }
            assertThat(total).isEqualTo(1_000);
        } finally {
            workers.shutdownNow();
        }
    }
}
