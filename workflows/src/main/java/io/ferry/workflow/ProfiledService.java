package io.ferry.workflow;

import org.perf4j.aop.Profiled;

import io.ferry.core.FerryMessage;
import io.ferry.core.Service;
import io.ferry.core.ServiceException;
import io.ferry.profiling.ProfiledComponent;

/** Times any service, built-in or custom, as {@code Service(<service id>)}. */
final class ProfiledService implements ProfiledComponent {

    private final Service service;
    private final String stage;

    ProfiledService(Service service) {
        this.service = service;
        this.stage = "Service(" + service.id() + ")";
    }

    /** The stage name used in lifecycle markers and error properties. */
    String stage() {
        return stage;
    }

    Service service() {
        return service;
    }

    @Override
    public String profilingId() {
        return service.id();
    }

    @Profiled(tag = "Service({id})")
    void apply(FerryMessage message) throws ServiceException {
        service.apply(message);
    }
}
