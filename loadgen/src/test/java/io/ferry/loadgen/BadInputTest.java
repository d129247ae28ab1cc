package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.broker.EmbeddedBroker;
import io.ferry.core.provider.ConnectionSettings;

/** Unusable settings and unreachable brokers fail at once, with one line that says what to fix. */
class BadInputTest {

    private static final String URL = "tcp://127.0.0.1:61616";

    @TempDir
    Path dir;

    @Test
    void aPayloadSizeOfZeroIsRefused() {
        assertThatThrownBy(() -> SendSettings.of(ConnectionSettings.anonymous("broker", URL), "in", 1, 10, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--size must be positive, got 0");
    }

    @Test
    void zeroThreadsOrMessagesAreRefused() {
        assertThatThrownBy(() -> SendSettings.of(ConnectionSettings.anonymous("broker", URL), "in", 0, 10, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--threads must be at least 1, got 0");
        assertThatThrownBy(() -> SendSettings.of(ConnectionSettings.anonymous("broker", URL), "in", 1, 0, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--messages must be at least 1, got 0");
    }

    @Test
    void priorityRateAndQueueAreChecked() {
        SendSettings valid = SendSettings.of(ConnectionSettings.anonymous("broker", URL), "in", 1, 10, 100);
        assertThatThrownBy(() -> new SendSettings(ConnectionSettings.anonymous("broker", URL), "in", 1, 10, valid.content(), PayloadKind.BYTES, true, 0,
                10, Duration.ZERO, 0, null)).hasMessage("--priority must be between 0 and 9, got 10");
        assertThatThrownBy(() -> valid.withTransactionSize(0)).hasMessage("--transaction-size must be at least 1, got 0");
        assertThatThrownBy(() -> valid.withRate(-1)).hasMessage("--rate must be 0 (unlimited) or a positive number, got -1.0");
        assertThatThrownBy(() -> valid.withRate(Double.NaN)).hasMessage("--rate must be 0 (unlimited) or a positive number, got NaN");
        assertThatThrownBy(() -> SendSettings.of(ConnectionSettings.anonymous("broker", URL), " ", 1, 10, 100)).hasMessage("--queue must not be empty");
        assertThatThrownBy(() -> new SinkSettings(ConnectionSettings.anonymous("broker", URL), "out", 0, Duration.ZERO, null))
                .hasMessage("--idle-timeout must be positive, got PT0S");
    }

    @Test
    void emptyTextAndAFolderWithoutFilesAreRefused() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Files.createDirectory(empty.resolve("only-a-folder"));
        assertThatThrownBy(() -> Content.fixedText("")).hasMessage("--text must not be empty");
        assertThatThrownBy(() -> Content.filesFrom(empty)).hasMessage("--files: no regular files in " + empty);
        assertThatThrownBy(() -> Content.filesFrom(dir.resolve("absent"))).hasMessage("--files: not a folder: " + dir.resolve("absent"));
    }

    @Test
    void anUnreachableBrokerSaysWhy() {
        String url = "tcp://127.0.0.1:" + EmbeddedBroker.freePort();
        assertThatThrownBy(() -> new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", url), "in", 2, 10, 100), ProgressListener.none()))
                .isInstanceOf(LoadException.class).hasMessage("cannot connect to " + url + ": Connection refused");
        assertThatThrownBy(() -> new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", url), "out", 10, Duration.ofSeconds(1), null),
                Map.of(), ProgressListener.none()))
                .isInstanceOf(LoadException.class).hasMessage("cannot connect to " + url + ": Connection refused");
    }

    @Test
    void anUnknownHostIsNamed() {
        String url = "tcp://no-such-host.invalid:61616";
        assertThatThrownBy(() -> new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", url), "in", 1, 10, 100), ProgressListener.none()))
                .isInstanceOf(LoadException.class).hasMessage("cannot connect to " + url + ": unknown host no-such-host.invalid");
    }

    @Test
    void aMalformedUrlIsABadSetting() {
        assertThatThrownBy(() -> new LoadSender().run(SendSettings.of(ConnectionSettings.anonymous("broker", "nonsense"), "in", 1, 10, 100), ProgressListener.none()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--url: 'nonsense' is not a broker URL; write it like tcp://127.0.0.1:61616");
    }

    @Test
    void sinkCountsThatDisagreeWithTheExpectedTotalAreRefused() {
        assertThatThrownBy(() -> new LoadSink().run(new SinkSettings(ConnectionSettings.anonymous("broker", URL), "out", 7, Duration.ofSeconds(1), null),
                Map.of("r-p0", 5), ProgressListener.none()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--expected is 7 but the producers sent 5");
    }
}
