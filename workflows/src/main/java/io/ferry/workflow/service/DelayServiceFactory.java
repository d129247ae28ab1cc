package io.ferry.workflow.service;

import java.util.Map;
import java.util.Set;

import io.ferry.api.Service;

/** {@code delay}: setting {@code delay} is a whole number and a unit: {@code 250ns}, {@code 500us}, {@code 2ms}, {@code 1s}. */
public final class DelayServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "delay";
    public static final String DELAY = "delay";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(DELAY));
        String value = checked.required(DELAY);
        return new DelayService(id, checked.duration(DELAY, value.trim()));
    }
}
