package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.api.ServiceException;

class DelayServiceTest {

    private final DelayServiceFactory factory = new DelayServiceFactory();

    @ParameterizedTest
    @CsvSource({"250ns, 250", "500us, 500000", "2ms, 2000000", "1s, 1000000000", "0ms, 0", "' 3 ms ', 3000000", "2m, 120000000000",
            "1h, 3600000000000", "1d, 86400000000000", "PT0.5S, 500000000", "pt2m, 120000000000"})
    void parsesAnAmountAndAUnit(String setting, long nanos) {
        DelayService service = (DelayService) factory.create("work", Map.of("delay", setting));

        assertThat(service.delay()).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "ms", "1.5ms", "-1ms", "2 minutes", "2MS", "99999999999999999999s", "PT-1S", "P1Y", "PTx", "200000d"})
    void refusesAnythingElseNamingTheSetting(String setting) {
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("work", Map.of("delay", setting)))
                .withMessageStartingWith("service 'work': setting 'delay' ")
                .withMessageContaining(setting.trim());
    }

    @Test
    void refusesAMissingOrUnknownSetting() {
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("work", Map.of()))
                .withMessage("service 'work': setting 'delay' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("work", Map.of("delay", "1ms", "jitter", "1ms")))
                .withMessage("service 'work': unknown setting 'jitter' (known: delay)");
    }

    @Test
    void holdsEachMessageAtLeastTheDelay() throws Exception {
        DelayService service = (DelayService) factory.create("work", Map.of("delay", "20ms"));

        long start = System.nanoTime();
        service.apply(Messages.text("x"));

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void anInterruptStopsTheDelayAndKeepsTheInterruptFlag() throws Exception {
        DelayService service = (DelayService) factory.create("work", Map.of("delay", "60s"));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            started.countDown();
            try {
                service.apply(Messages.text("x"));
            } catch (ServiceException e) {
                thrown.set(e);
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        worker.start();
        started.await();

        worker.interrupt();
        worker.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(worker.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(ServiceException.class).hasMessageContaining("service 'work': interrupted");
        assertThat(stillInterrupted).isTrue();
    }

    @Test
    void anAlreadyInterruptedThreadIsRefusedAtOnce() {
        DelayService service = (DelayService) factory.create("work", Map.of("delay", "60s"));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> service.apply(Messages.text("x"))).isInstanceOf(ServiceException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted(); // leave the test runner's thread clean
        }
    }
}
