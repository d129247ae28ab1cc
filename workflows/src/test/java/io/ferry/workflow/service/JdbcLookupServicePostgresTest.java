package io.ferry.workflow.service;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * jdbc-lookup against a real PostgreSQL server. Runs only where one is configured, so a new user's
 * default build passes without it: set {@code FERRY_TEST_POSTGRES_URL} (e.g.
 * {@code jdbc:postgresql://127.0.0.1:5432/test}) and optionally {@code FERRY_TEST_POSTGRES_USER}
 * and {@code FERRY_TEST_POSTGRES_PASSWORD}. {@code .ci/run} sets them when a server answers locally.
 */
@EnabledIfEnvironmentVariable(named = "FERRY_TEST_POSTGRES_URL", matches = ".+")
class JdbcLookupServicePostgresTest extends JdbcLookupContract {

    @Override
    String url() {
        return System.getenv("FERRY_TEST_POSTGRES_URL");
    }

    @Override
    String slowQuery() {
        return "SELECT pg_sleep(600)::text AS slept, CAST(? AS INTEGER) AS id";
    }

    @Override
    String user() {
        return System.getenv("FERRY_TEST_POSTGRES_USER");
    }

    @Override
    String password() {
        return System.getenv("FERRY_TEST_POSTGRES_PASSWORD");
    }
}
