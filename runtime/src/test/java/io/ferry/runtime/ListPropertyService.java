package io.ferry.runtime;

import java.util.List;
import java.util.Map;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/**
 * A custom service that makes a message invalid: to each message whose property {@code poison} is true it adds
 * a property whose value is a List, a type JMS properties do not have.
 */
public final class ListPropertyService implements Service {

    private final String id;

    private ListPropertyService(String id) {
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) {
        if (Boolean.TRUE.equals(message.metadata().get("poison"))) {
            message.metadata().put("tags", List.of("a", "b"));
        }
    }

    /** Registered in src/test/resources/META-INF/services/io.ferry.api.ServiceFactory. */
    public static final class Factory implements ServiceFactory {

        @Override
        public String type() {
            return "list-property";
        }

        @Override
        public Service create(String id, Map<String, String> settings) {
            return new ListPropertyService(id);
        }
    }
}
