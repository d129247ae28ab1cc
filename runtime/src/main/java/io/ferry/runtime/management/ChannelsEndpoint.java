package io.ferry.runtime.management;

import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.ferry.runtime.channel.FerryChannel;
import io.ferry.runtime.channel.FerryChannels;

/**
 * {@code /actuator/channels}: lists the channels; {@code POST /actuator/channels/<id>} with
 * {@code {"action":"stop"}} or {@code {"action":"start"}} stops or starts one channel without
 * touching the others. A stop drains like a shutdown, so the request returns once it has.
 */
@Endpoint(id = "channels")
final class ChannelsEndpoint {

    /** One channel as listed. */
    record ChannelState(String id, boolean running, String guarantee, String local, String remote, int workers, long delivered) {

        static ChannelState of(FerryChannel channel) {
            return new ChannelState(channel.id(), channel.running(), channel.guarantee().label(), channel.localState().label(),
                    channel.remoteState().label(), channel.workers(), channel.delivered());
        }
    }

    record Channels(List<ChannelState> channels) {
    }

    private final FerryChannels channels;

    ChannelsEndpoint(FerryChannels channels) {
        this.channels = channels;
    }

    @ReadOperation
    Channels list() {
        return new Channels(channels.all().stream().map(ChannelState::of).toList());
    }

    @WriteOperation
    WebEndpointResponse<Object> change(@Selector String id, String action) {
        FerryChannel channel = channels.channel(id).orElse(null);
        if (channel == null) {
            return new WebEndpointResponse<>("unknown channel '" + id + "'", WebEndpointResponse.STATUS_NOT_FOUND);
        }
        switch (action) {
            case "stop" -> channels.stop(id);
            case "start" -> {
                if (!channels.start(id)) {
                    return new WebEndpointResponse<>("the adapter is shutting down", WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
                }
            }
            default -> {
                return new WebEndpointResponse<>("unknown action '" + action + "' (known: start, stop)",
                        WebEndpointResponse.STATUS_BAD_REQUEST);
            }
        }
        return new WebEndpointResponse<>(ChannelState.of(channel));
    }
}
