package io.ferry.app.health;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a running adapter's management endpoints (Spring Boot Actuator under {@code /actuator}) with
 * the JDK's HTTP client. Every failure becomes one line naming the URL and what went wrong.
 */
final class ManagementClient {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** @param password null for no authentication */
    ManagementClient(URI base, String user, String password) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.authorization = user == null ? null
                : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    URI base() {
        return base;
    }

    /** A JSON endpoint; {@code acceptUnavailable} takes a 503's body too (health reports DOWN with 503). */
    JsonNode json(String path, boolean acceptUnavailable) {
        return parse(path, get(path), acceptUnavailable);
    }

    /** A JSON endpoint that may be absent: null on 404. */
    JsonNode jsonOrNull(String path) {
        HttpResponse<String> response = get(path);
        return response.statusCode() == 404 ? null : parse(path, response, false);
    }

    private JsonNode parse(String path, HttpResponse<String> response, boolean acceptUnavailable) {
        int status = response.statusCode();
        if (status != 200 && !(acceptUnavailable && status == 503)) {
            throw unexpected(path, response);
        }
        try {
            JsonNode node = JSON.readTree(response.body());
            if (node == null || !node.isObject()) {
                throw notFerry(path, "its answer is not a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw notFerry(path, "its answer is not JSON");
        }
    }

    /** A text endpoint (the tables, Prometheus); null when it is not there (404). */
    String textOrNull(String path) {
        HttpResponse<String> response = get(path);
        if (response.statusCode() == 404) {
            return null;
        }
        if (response.statusCode() != 200) {
            throw unexpected(path, response);
        }
        return response.body();
    }

    private HttpResponse<String> get(String path) {
        URI uri = base.resolve(base.getPath() + path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw unreachable("no answer within " + TIMEOUT.toSeconds() + " s");
        } catch (HttpTimeoutException e) {
            throw unreachable(uri + " gave no answer within " + TIMEOUT.toSeconds() + " s");
        } catch (ConnectException e) {
            throw unreachable("connection refused (is the adapter running, with ferry.management.port set to this port?)");
        } catch (IOException e) {
            throw unreachable(e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
        } catch (IllegalArgumentException e) {
            throw new HealthCheckException(HealthCommand.EXIT_BAD_INPUT, "--url " + base + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable("interrupted");
        }
    }

    private HealthCheckException unexpected(String path, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 401) {
            return new HealthCheckException(HealthCommand.EXIT_UNREACHABLE, base + ": 401 Unauthorized: "
                    + (authorization == null ? "the adapter wants a user and password (--user, --password-env)"
                    : "the adapter refused this user and password"));
        }
        if (status == 403) {
            return new HealthCheckException(HealthCommand.EXIT_UNREACHABLE, base + path + ": 403 Forbidden");
        }
        if (status == 404) {
            return notFerry(path, "it answers 404 Not Found");
        }
        return new HealthCheckException(HealthCommand.EXIT_UNREACHABLE, base + path + ": HTTP " + status);
    }

    private HealthCheckException notFerry(String path, String why) {
        return new HealthCheckException(HealthCommand.EXIT_UNREACHABLE, base + path
                + ": not a Ferry management endpoint (" + why + "); give the adapter's management URL, e.g. http://127.0.0.1:8091");
    }

    private HealthCheckException unreachable(String why) {
        return new HealthCheckException(HealthCommand.EXIT_UNREACHABLE, "cannot reach " + base + ": " + why);
    }
}
