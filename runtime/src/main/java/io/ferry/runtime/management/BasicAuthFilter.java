package io.ferry.runtime.management;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * HTTP basic authentication for the management port: one user, whose credentials come from the
 * environment. Ferry needs nothing more, so this one filter stands in for Spring Security (which
 * would add start-up time and, unconfigured, log a generated password). Credentials are compared
 * in constant time and never logged.
 */
final class BasicAuthFilter extends HttpFilter {

    private final byte[] expected;

    BasicAuthFilter(String user, String password) {
        this.expected = ("Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && MessageDigest.isEqual(expected, authorization.getBytes(StandardCharsets.UTF_8))) {
            chain.doFilter(request, response);
            return;
        }
        response.setHeader("WWW-Authenticate", "Basic realm=\"ferry\", charset=\"UTF-8\"");
        response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
    }
}
