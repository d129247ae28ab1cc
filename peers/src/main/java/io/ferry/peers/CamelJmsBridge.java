package io.ferry.peers;

import java.time.Duration;

import jakarta.jms.ConnectionFactory;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.jms.JmsComponent;
import org.apache.camel.component.jms.JmsConsumer;
import org.apache.camel.impl.DefaultCamelContext;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.listener.DefaultMessageListenerContainer;

/**
 * An Apache Camel route {@code from(jms:queue:src).to(jms:queue:dst)} with camel-jms, one JMS
 * component per broker ({@code source}, {@code target}), the producer keeping each message's delivery mode, priority
 * and time to live ({@code preserveMessageQos}: by default it sends every message persistent), Camel's defaults otherwise.
 * <p>
 * Camel's defaults mean: not transacted, AUTO_ACKNOWLEDGE on Spring's DefaultMessageListenerContainer,
 * which acknowledges a message when {@code receive()} returns, before the route sends it. A crash or a
 * failed send to the target loses that message (at most once); nothing is ever duplicated. The
 * producer is a JmsTemplate on the plain connection factory, which opens a connection, session and
 * producer for every message unless {@code cacheProducerConnection} wraps the target in Spring's
 * CachingConnectionFactory (Camel's documentation recommends a pooled factory).
 */
final class CamelJmsBridge implements PeerBridge {

    private static final String ROUTE_ID = "peer-camel-bridge";

    private final CamelContext camel = new DefaultCamelContext();
    private final Endpoints endpoints;
    private final int concurrentConsumers;
    private final boolean cacheConsumer;
    private final boolean cacheProducerConnection;
    private CachingConnectionFactory cachingTarget;

    CamelJmsBridge(Endpoints endpoints, int concurrentConsumers, boolean cacheConsumer, boolean cacheProducerConnection) {
        this.endpoints = endpoints;
        this.concurrentConsumers = concurrentConsumers;
        this.cacheConsumer = cacheConsumer;
        this.cacheProducerConnection = cacheProducerConnection;
    }

    @Override
    public void start(Duration timeout) throws Exception {
        ConnectionFactory target = endpoints.target().connectionFactory().get();
        if (cacheProducerConnection) {
            cachingTarget = new CachingConnectionFactory(target);
            target = cachingTarget;
        }
        camel.addComponent("source", JmsComponent.jmsComponent(endpoints.source().connectionFactory().get()));
        camel.addComponent("target", JmsComponent.jmsComponent(target));
        String from = "source:queue:" + endpoints.source().queue() + "?concurrentConsumers=" + concurrentConsumers
                + (cacheConsumer ? "&cacheLevelName=CACHE_CONSUMER" : "");
        String to = "target:queue:" + endpoints.target().queue() + "?preserveMessageQos=true";
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(from).routeId(ROUTE_ID).to(to);
            }
        });
        camel.getShutdownStrategy().setTimeout(10);
        camel.start();
        // The listener container creates its consumers on its own threads after start() returns.
        // Without a transaction manager Spring's CACHE_AUTO (Camel's default) is CACHE_CONSUMER, so the
        // container reports when a consumer is registered on the queue.
        JmsConsumer consumer = (JmsConsumer) camel.getRoute(ROUTE_ID).getConsumer();
        DefaultMessageListenerContainer container = (DefaultMessageListenerContainer) consumer.getListenerContainer();
        PeerBridge.Condition.await(container::isRegisteredWithDestination, timeout,
                "Camel JMS consumer registered on " + endpoints.source().queue());
    }

    @Override
    public void close() throws Exception {
        camel.close();
        if (cachingTarget != null) {
            cachingTarget.destroy();
        }
    }
}
