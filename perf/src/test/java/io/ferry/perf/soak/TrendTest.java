package io.ferry.perf.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** The slope, its interval and the verdict, on series whose truth is known. */
class TrendTest {

    private static final int SAMPLES = 150;      // 25 minutes of 10 s samples
    private static final double STEP_SECONDS = 10;

    @Test
    void aSteadyLeakIsFoundWithItsRate() {
        // 30 MiB per hour on 300 MiB, with 1 MiB of noise.
        Random random = new Random(1);
        Trend trend = Trend.of("RSS", "MiB", seconds(), values(i -> 300 + 30 * hours(i) + random.nextGaussian()), 1);

        assertThat(trend.verdict()).isEqualTo(Trend.RISES);
        assertThat(trend.slopePerHour()).isCloseTo(30, within(3.0));
        assertThat(trend.lowPerHour()).isPositive().isLessThan(30);
        assertThat(trend.highPerHour()).isGreaterThan(30);
        assertThat(trend.change()).isCloseTo(30 * hours(SAMPLES - 1), within(2.0));
    }

    @Test
    void aConstantSeriesIsFlat() {
        Trend trend = Trend.of("threads", "", seconds(), values(i -> 47), 1);

        assertThat(trend.verdict()).isEqualTo(Trend.FLAT);
        assertThat(trend.slopePerHour()).isZero();
        assertThat(trend.spread()).isZero();
    }

    @Test
    void noiseAroundALevelIsFlatWhenThereAreEnoughSamples() {
        Random random = new Random(2);
        Trend trend = Trend.of("latency p99", "ms", seconds(), values(i -> 20 + 3 * random.nextGaussian()), 0.01);

        assertThat(trend.verdict()).isEqualTo(Trend.FLAT);
        assertThat(trend.lowPerHour()).isNegative();
        assertThat(trend.highPerHour()).isPositive();
    }

    @Test
    void aFewNoisySamplesAreNotCalledFlat() {
        double[] seconds = {0, 10, 20, 30, 40, 50};
        double[] values = {20, 35, 18, 40, 22, 31};

        assertThat(Trend.of("latency p99", "ms", seconds, values, 0.01).verdict()).isEqualTo(Trend.UNCLEAR);
    }

    @Test
    void autocorrelatedNoiseWidensTheInterval() {
        // A slow wave (a sawtooth heap, a drifting machine) makes neighbouring residuals alike: fewer independent samples.
        double[] wave = values(i -> 50 + 5 * Math.sin(i / 8.0));
        Random random = new Random(3);
        double[] independent = values(i -> 50 + 5 * Math.sqrt(0.5) * random.nextGaussian());

        Trend alike = Trend.of("heap after GC", "MiB", seconds(), wave, 1);
        Trend apart = Trend.of("heap after GC", "MiB", seconds(), independent, 1);

        assertThat(alike.autocorrelation()).isGreaterThan(0.8);
        assertThat(alike.highPerHour() - alike.lowPerHour()).isGreaterThan(3 * (apart.highPerHour() - apart.lowPerHour()));
    }

    @Test
    void tooFewSamplesSaySo() {
        assertThat(Trend.of("RSS", "MiB", new double[] {0, 10, 20}, new double[] {1, 2, 3}, 1).verdict()).isEqualTo(Trend.TOO_FEW);
        assertThat(Trend.of("RSS", "MiB", new double[0], new double[0], 1).samples()).isZero();
    }

    private interface Value {
        double at(int i);
    }

    private static double[] values(Value value) {
        double[] values = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            values[i] = value.at(i);
        }
        return values;
    }

    private static double[] seconds() {
        return values(i -> 300 + i * STEP_SECONDS);
    }

    private static double hours(int i) {
        return i * STEP_SECONDS / 3600;
    }
}
