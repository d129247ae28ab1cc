package io.ferry.runtime;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Users of the RabbitMQ server on this machine, with rights of a test's choosing, made and removed with {@code rabbitmqctl}
 * (which needs root): for tests of a right the broker refuses as the queue is used.
 */
final class RabbitMqUsers {

    private static final String VIRTUAL_HOST = "/";

    private RabbitMqUsers() {
    }

    /** Whether rabbitmqctl answers here, for a server of {@link RabbitMqTestServer} on this machine. */
    static boolean available() {
        if (RabbitMqTestServer.url() == null || !RabbitMqTestServer.onLoopback() || !"%2f".equalsIgnoreCase(RabbitMqTestServer.virtualHostPath().substring(1))) {
            return false;
        }
        try {
            return run("rabbitmqctl", "-q", "list_users") == 0;
        } catch (IOException e) {
            return false; // no rabbitmqctl
        }
    }

    /** A user that may configure and read everything, and write only where {@code write} (a regular expression) matches. */
    static User create(String name, String write) throws IOException {
        String password = UUID.randomUUID().toString();
        require(run("rabbitmqctl", "-q", "add_user", name, password), "add_user " + name);
        User user = new User(name, password);
        try {
            user.mayWrite(write);
        } catch (IOException e) {
            user.close();
            throw e;
        }
        return user;
    }

    record User(String name, String password) implements AutoCloseable {

        /** Sets where the user may write (publish to an exchange, bind a queue). */
        void mayWrite(String write) throws IOException {
            require(run("rabbitmqctl", "-q", "set_permissions", "-p", VIRTUAL_HOST, name, ".*", write, ".*"), "set_permissions " + name);
        }

        @Override
        public void close() throws IOException {
            run("rabbitmqctl", "-q", "delete_user", name);
        }
    }

    private static void require(int exitCode, String what) throws IOException {
        if (exitCode != 0) {
            throw new IOException("rabbitmqctl " + what + " failed with exit code " + exitCode);
        }
    }

    private static int run(String... command) throws IOException {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": no answer within 60 s");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + ": interrupted", e);
        }
    }
}
