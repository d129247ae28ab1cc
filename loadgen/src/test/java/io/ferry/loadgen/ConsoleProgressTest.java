package io.ferry.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ConsoleProgressTest {

    @Test
    void aPlainLineSaysCountPercentAndRate() {
        assertThat(ConsoleProgress.plainLine("send", 4000, 10000, 1234.4)).isEqualTo("send: 4000/10000 (40%) 1234 msg/s");
        assertThat(ConsoleProgress.plainLine("receive", 17, 0, 3)).isEqualTo("receive: 17 so far, 3 msg/s");
    }

    @Test
    void onATerminalOneLineIsRedrawnInPlaceAndEndedOnce() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress progress = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);

        progress.update("send", 500, 1000, 1000);
        progress.update("send", 1000, 1000, 9);   // a shorter line: the rest of the first is blanked
        progress.finish();

        String first = ConsoleProgress.bar("send", 500, 1000, 1000);
        String second = ConsoleProgress.bar("send", 1000, 1000, 9);
        assertThat(first).isEqualTo("send     [###############---------------]  50%  500/1000  1000 msg/s");
        assertThat(second).isEqualTo("send     [##############################] 100%  1000/1000  9 msg/s");
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("\r" + first + "\r" + second + " ".repeat(first.length() - second.length()) + System.lineSeparator());
    }

    @Test
    void withoutATerminalNothingIsPrintedMoreOftenThanEveryTwoSeconds() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress progress = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);

        progress.update("send", 10, 100, 20);
        progress.update("send", 20, 100, 20);
        progress.finish();

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
