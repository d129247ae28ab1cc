package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.ServiceException;

/** jdbc-lookup against an in-memory H2 database, plus the checks of its settings. */
class JdbcLookupServiceH2Test extends JdbcLookupContract {

    // A database per test; it lives while the contract's setup connection is open.
    private final String url = "jdbc:h2:mem:lookup-" + UUID.randomUUID();

    @Override
    String url() {
        return url;
    }

    @Override
    String slowQuery() {
        // About 10^11 rows to count: H2 checks for a cancel as it goes.
        return "SELECT COUNT(*) AS n FROM SYSTEM_RANGE(1, 1000000) a, SYSTEM_RANGE(1, 100000) b WHERE a.X + b.X = ?";
    }

    @Override
    String user() {
        return "sa";
    }

    @Override
    String password() {
        return "";
    }

    @Test
    void aColumnNoMessagePropertyCanHoldIsRefusedWithAHint() throws Exception {
        JdbcLookupService service = lookup("SELECT X'CAFE' AS photo FROM " + table + " WHERE id = ?", "customer-id", "1");
        FerryMessage message = Messages.text("x");
        message.metadata().put("customer-id", 1);

        assertThatThrownBy(() -> service.apply(message))
                .isInstanceOf(ServiceException.class)
                .hasMessageContaining("column 'PHOTO'")
                .hasMessageContaining("cast it in the query");
    }

    @Test
    void badSettingsNameTheSetting() {
        JdbcLookupServiceFactory factory = new JdbcLookupServiceFactory();
        Map<String, String> good = Map.of("url", url, "query", "SELECT 1 AS one");

        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", without(good, "url")))
                .withMessage("service 'enrich': setting 'url' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", without(good, "query")))
                .withMessage("service 'enrich': setting 'query' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "url", "jdbc:nosuchdb:x")))
                .withMessage("service 'enrich': setting 'url' is not accepted by any JDBC driver on the class path (a 'jdbc:nosuchdb:' URL)");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "url", "jdbc:oracle:thin:scott/tiger@//h:1521/s")))
                .withMessage("service 'enrich': setting 'url' is not accepted by any JDBC driver on the class path (a 'jdbc:oracle:' URL)");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "pool-size", "0")))
                .withMessage("service 'enrich': setting 'pool-size' must be a positive whole number, not '0'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "pool-size", "many")))
                .withMessage("service 'enrich': setting 'pool-size' must be a positive whole number, not 'many'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "parameters", "a,,b")))
                .withMessage("service 'enrich': setting 'parameters' has an empty item: 'a,,b'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "query-timeout", "500ms")))
                .withMessage("service 'enrich': setting 'query-timeout' must be at least 1s (JDBC counts whole seconds), not '500ms'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "query-timeout", "30")))
                .withMessage("service 'enrich': setting 'query-timeout' must be a whole number with a unit ns, us, ms, s, m, h or d (e.g. 2ms), or ISO-8601 (PT30S), not '30'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("enrich", with(good, "querry", "x")))
                .withMessage("service 'enrich': unknown setting 'querry' (known: parameters, password, pool-size, query, query-timeout, url, user)");
    }

    @Test
    void aQueryWithoutParametersNeedsNoParametersSetting() throws Exception {
        JdbcLookupService service = (JdbcLookupService) new JdbcLookupServiceFactory()
                .create("count", Map.of("url", url, "user", "sa", "query", "SELECT COUNT(*) AS customers FROM " + table));
        try {
            FerryMessage message = Messages.text("x");
            service.apply(message);
            assertThat(message.metadata()).containsEntry("customers", 50L);
        } finally {
            service.close();
        }
    }

    private static Map<String, String> with(Map<String, String> settings, String name, String value) {
        Map<String, String> changed = new HashMap<>(settings);
        changed.put(name, value);
        return changed;
    }

    private static Map<String, String> without(Map<String, String> settings, String name) {
        Map<String, String> changed = new HashMap<>(settings);
        changed.remove(name);
        return changed;
    }
}
