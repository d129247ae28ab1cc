package io.ferry.runtime;

import java.util.Set;
import java.util.function.Consumer;

import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.spi.core.security.ActiveMQSecurityManagerImpl;

import io.ferry.broker.testing.TestBroker;

/**
 * An Artemis broker with security on, for tests of a right refused as it is used: one user, {@value #USER}, of a role
 * that may do everything on every address but send to the one address given, until {@link #give} gives it that right.
 * Artemis checks the right at each send and fails the commit; the producer opens fine.
 */
final class SendRights {

    static final String USER = "ferry";
    static final String PASSWORD = "secret";
    private static final String ROLE = "bridge";

    private SendRights() {
    }

    /** The broker's users: {@value #USER} alone. */
    static ActiveMQSecurityManagerImpl users() {
        ActiveMQSecurityManagerImpl users = new ActiveMQSecurityManagerImpl();
        users.getConfiguration().addUser(USER, PASSWORD);
        users.getConfiguration().addRole(USER, ROLE);
        return users;
    }

    /** Security on; every right on every address, but no right to send to {@code address}. */
    static Consumer<Configuration> withheldOn(String address) {
        return configuration -> {
            configuration.setSecurityEnabled(true);
            configuration.putSecurityRoles("#", Set.of(role(true)));
            configuration.putSecurityRoles(address, Set.of(role(false)));
        };
    }

    /** Gives the right to send to {@code address} back, on the running broker. */
    static void give(TestBroker broker, String address) {
        broker.running().securityRoles(address, Set.of(role(true)));
    }

    /** Every right (sending aside, as said), managing the broker included. */
    private static Role role(boolean send) {
        return new Role(ROLE, send, true, true, true, true, true, true, true, true, true, false, false);
    }
}
