package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceFactory;

/** The built-in services are found the way custom ones are: through ServiceLoader. */
class ServiceFactoryRegistrationTest {

    @Test
    void serviceLoaderFindsEveryBuiltInType() {
        List<ServiceFactory> factories = ServiceLoader.load(ServiceFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();

        assertThat(factories).extracting(ServiceFactory::type)
                .doesNotHaveDuplicates()
                .contains("add-metadata", "copy-metadata", "remove-metadata", "xslt", "template", "delay", "jdbc-lookup");
    }

    @Test
    void aLoadedFactoryMakesAWorkingService() throws Exception {
        Map<String, ServiceFactory> byType = ServiceLoader.load(ServiceFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(ServiceFactory::type, Function.identity()));

        Service service = byType.get("add-metadata").create("tag", Map.of("source", "ferry"));
        FerryMessage message = Messages.text("hello");
        service.apply(message);

        assertThat(service.id()).isEqualTo("tag");
        assertThat(message.metadata()).containsEntry("source", "ferry");
    }
}
