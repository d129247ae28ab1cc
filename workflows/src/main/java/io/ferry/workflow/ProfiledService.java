package io.ferry.workflow;

import org.perf4j.aop.Profiled;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;
import io.ferry.core.LifecycleStages;
import io.ferry.core.ProfilingTags;
import io.ferry.profiling.ProfiledComponent;

/** Times any service, built-in or custom, as {@code Service(<service id>)}. */
final class ProfiledService implements ProfiledComponent {

    private final Service service;
    private final String stage;

    ProfiledService(Service service) {
        this.service = service;
        this.stage = LifecycleStages.service(service.id());
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

    @Profiled(tag = ProfilingTags.SERVICE, logFailuresSeparately = true)
    void apply(FerryMessage message) throws ServiceException {
        service.apply(message);
    }
}
