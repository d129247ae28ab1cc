package io.ferry.runtime.management;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.ferry.core.event.LifecycleEventPublisher;
import io.ferry.core.jms.DestinationRefusal;
import io.ferry.core.jms.SharedConnection;
import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.channel.FerryChannels;

/**
 * The {@code channels} health component: one component per channel, UP when both its connections
 * are connected, neither broker refuses the channel's destination and its worker runs, DOWN otherwise (a refusal under
 * {@code refused}: source, target or error-queue, with the broker's reason; a worker that ended by itself under
 * {@code worker}), OUT_OF_SERVICE when it was stopped on purpose. It only reads the
 * states the connections and the publisher keep; it never opens a connection itself.
 */
final class ChannelHealth {

    private ChannelHealth() {
    }

    static CompositeHealthContributor of(FerryChannels channels) {
        Map<String, HealthIndicator> byId = new LinkedHashMap<>();
        for (FerryChannel channel : channels.all()) {
            byId.put(channel.id(), () -> health(channel, channels));
        }
        return CompositeHealthContributor.fromMap(byId);
    }

    private static Health health(FerryChannel channel, FerryChannels channels) {
        boolean running = channel.running();
        SharedConnection.State local = channel.localState();
        SharedConnection.State remote = channel.remoteState();
        Map<String, String> refused = refused(channel);
        String workerEndedBy = channel.workerEndedBy();
        Health.Builder health;
        if (!running) {
            health = Health.outOfService();
        } else if (local == SharedConnection.State.CONNECTED && remote == SharedConnection.State.CONNECTED && refused.isEmpty()
                && workerEndedBy == null) {
            health = Health.up();
        } else {
            health = Health.down();
        }
        health.withDetail("guarantee", channel.guarantee().label())
                .withDetail("local", local.label())
                .withDetail("remote", remote.label());
        if (running && !refused.isEmpty()) {
            health.withDetail("refused", refused);
        }
        if (workerEndedBy != null) {
            health.withDetail("worker", "ended: " + workerEndedBy);
        }
        return health.withDetail("events", events(channel, channels))
                .withDetail("running", running)
                .build();
    }

    /** The destinations a broker refuses, by use ("source", "target", "error-queue"), each with the broker's reason. */
    private static Map<String, String> refused(FerryChannel channel) {
        Map<String, String> refused = new LinkedHashMap<>();
        refused(refused, "source", channel.sourceRefusal());
        refused(refused, "target", channel.targetRefusal());
        refused(refused, "error-queue", channel.errorQueueRefusal());
        return refused;
    }

    private static void refused(Map<String, String> refused, String use, DestinationRefusal refusal) {
        String reason = refusal.reason();
        if (reason != null) {
            refused.put(use, reason);
        }
    }

    private static Map<String, Object> events(FerryChannel channel, FerryChannels channels) {
        Map<String, Object> events = new LinkedHashMap<>();
        LifecycleEventPublisher publisher = channels.events().orElse(null);
        if (!channel.sendsEvents() || publisher == null) {
            events.put("state", "off");
            return events;
        }
        events.put("state", publisher.state().label());
        events.put("queued", publisher.queued());
        events.put("dropped", publisher.droppedTotal());
        return events;
    }
}
