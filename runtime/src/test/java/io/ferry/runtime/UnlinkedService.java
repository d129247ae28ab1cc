package io.ferry.runtime;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/**
 * A custom service whose jar was deployed without one it needs: every message it handles throws NoClassDefFoundError, an
 * error no message caused, while {@link #MISSING} says so (the test puts the jar back by clearing it).
 */
public record UnlinkedService(String id) implements Service {

    public static final AtomicBoolean MISSING = new AtomicBoolean();

    @Override
    public void apply(FerryMessage message) {
        if (MISSING.get()) {
            throw new NoClassDefFoundError("com/example/Missing");
        }
    }

    /** Registered in src/test/resources/META-INF/services/io.ferry.api.ServiceFactory. */
    public static final class Factory implements ServiceFactory {

        @Override
        public String type() {
            return "unlinked";
        }

        @Override
        public Service create(String id, Map<String, String> settings) {
            return new UnlinkedService(id);
        }
    }
}
