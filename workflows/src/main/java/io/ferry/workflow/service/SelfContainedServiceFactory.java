package io.ferry.workflow.service;

import java.util.Map;

import io.ferry.api.ServiceFactory;

/** A factory whose services hold nothing open: making one is the check of its settings. */
abstract class SelfContainedServiceFactory implements ServiceFactory {

    @Override
    public final void check(String id, Map<String, String> settings) {
        create(id, settings);
    }
}
