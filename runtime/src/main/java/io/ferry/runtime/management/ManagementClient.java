package io.ferry.runtime.management;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of an adapter's management port (Spring Boot Actuator under {@code /actuator}), on the
 * JDK's HTTP client: what the health check, the perf run and the tests use to talk to a running
 * adapter. Plain requests answer whatever the adapter answered; the reading methods turn every
 * failure into a {@link ManagementException} of one line naming the URL and what went wrong.
 */
public final class ManagementClient {

    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI base;
    private final String authorization;
    /** How long connecting may take, and then the answer's headers. */
    private final Duration timeout;
    /**
     * The whole exchange's bound: connecting, then the whole answer. The request's own timeout covers the wait for the
     * answer's headers only (in Java 17), so a body that stops coming would otherwise hold the caller for ever.
     */
    private final Duration exchangeTimeout;
    private final HttpClient http;

    /** @param user null for no authentication */
    public ManagementClient(URI base, String user, String password) {
        this(base, user, password, TIMEOUT);
    }

    /** @param timeout how long connecting may take, and then the answer (tests of an adapter that stops answering) */
    public ManagementClient(URI base, String user, String password, Duration timeout) {
        this.timeout = timeout;
        this.exchangeTimeout = timeout.multipliedBy(2);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.authorization = user == null ? null
                : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** An adapter's management port on this machine, without authentication. */
    public static ManagementClient local(int port) {
        return new ManagementClient(URI.create("http://127.0.0.1:" + port), null, null);
    }

    public URI base() {
        return base;
    }

    public boolean authenticates() {
        return authorization != null;
    }

    /** GET, whatever the status. */
    public HttpResponse<String> get(String path) {
        return send(path, request(path).GET());
    }

    /** DELETE, whatever the status. */
    public HttpResponse<String> delete(String path) {
        return send(path, request(path).DELETE());
    }

    /** POST of a JSON body, whatever the status. */
    public HttpResponse<String> postJson(String path, String body) {
        return send(path, request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A JSON endpoint; {@code acceptUnavailable} takes a 503's body too (health reports DOWN with 503). */
    public JsonNode json(String path, boolean acceptUnavailable) {
        return parse(path, get(path), acceptUnavailable);
    }

    /** A JSON endpoint that may be absent: null on 404. */
    public JsonNode jsonOrNull(String path) {
        HttpResponse<String> response = get(path);
        return response.statusCode() == 404 ? null : parse(path, response, false);
    }

    /** A text endpoint (the tables, Prometheus); null when it is not there (404). */
    public String textOrNull(String path) {
        HttpResponse<String> response = get(path);
        if (response.statusCode() == 404) {
            return null;
        }
        if (response.statusCode() / 100 != 2) {
            throw unexpected(path, response);
        }
        return response.body();
    }

    /** A request that must succeed (2xx); its body. */
    public String require(HttpResponse<String> response, String path) {
        if (response.statusCode() / 100 != 2) {
            throw unexpected(path, response);
        }
        return response.body();
    }

    /** Any answer's body as JSON (a test reads a 503's or a 400's this way). */
    public static JsonNode read(HttpResponse<String> response) {
        return JSON.readTree(response.body());
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

    private HttpRequest.Builder request(String path) {
        // The raw path: the decoded one may hold a % that no longer reads as an escape.
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(base.getRawPath() + path)).timeout(timeout);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    private HttpResponse<String> send(String path, HttpRequest.Builder request) {
        CompletableFuture<HttpResponse<String>> answer;
        try {
            answer = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new ManagementException(ManagementException.Kind.BAD_URL, base + ": " + e.getMessage());
        }
        try {
            return answer.get(exchangeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw unreachable(base + path + " gave no whole answer within " + exchangeTimeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw failed(path, e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw unreachable("interrupted");
        }
    }

    private ManagementException failed(String path, Throwable failure) {
        if (failure instanceof HttpConnectTimeoutException) {
            return unreachable("no answer within " + timeout.toSeconds() + " s");
        }
        if (failure instanceof HttpTimeoutException) {
            return unreachable(base + path + " gave no answer within " + timeout.toSeconds() + " s");
        }
        if (failure instanceof ConnectException) {
            return unreachable(connectFailure(failure));
        }
        if (failure instanceof IllegalArgumentException) {
            return new ManagementException(ManagementException.Kind.BAD_URL, base + ": " + failure.getMessage());
        }
        return unreachable(failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName());
    }

    /** Why no connection was made: the JDK's client wraps an unknown host and a missing route in a ConnectException too. */
    private String connectFailure(Throwable failure) {
        String message = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
                return "unknown host " + base.getHost();
            }
            if (cause.getMessage() != null) {
                message = cause.getMessage();
            }
        }
        if (message == null || message.contains("refused")) {
            return "connection refused (is the adapter running, with ferry.management.port set to this port?)";
        }
        return message;
    }

    private ManagementException unexpected(String path, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 401) {
            return new ManagementException(ManagementException.Kind.UNAUTHORIZED, base + ": 401 Unauthorized: "
                    + (authorization == null ? "the adapter wants a user and password" : "the adapter refused this user and password"));
        }
        if (status == 403) {
            return new ManagementException(ManagementException.Kind.UNREACHABLE, base + path + ": 403 Forbidden");
        }
        if (status == 404) {
            return notFerry(path, "it answers 404 Not Found");
        }
        return new ManagementException(ManagementException.Kind.UNREACHABLE, base + path + ": HTTP " + status);
    }

    /** The answer at {@code path} is not what a Ferry management port gives. */
    public ManagementException notFerry(String path, String why) {
        return new ManagementException(ManagementException.Kind.NOT_FERRY, base + path
                + ": not a Ferry management endpoint (" + why + "); give the adapter's management URL, e.g. http://127.0.0.1:8091");
    }

    private ManagementException unreachable(String why) {
        return new ManagementException(ManagementException.Kind.UNREACHABLE, "cannot reach " + base + ": " + why);
    }
}
