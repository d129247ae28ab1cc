package io.ferry.perf.soak;

import java.util.Arrays;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * The straight-line trend of one series over the run after its warm-up, and whether the data say it is
 * flat, rising, falling or cannot tell.
 *
 * <p>The slope is the least-squares fit of value against time, per hour. Its 95% interval is the fit's
 * standard error times Student's t (Commons Math), with the error widened for the residuals' lag-1 autocorrelation r
 * (samples 10 s apart are not independent: a sawtooth heap or a slow drift would otherwise look far
 * more certain than it is): the error grows by sqrt((1+r)/(1-r)) and the degrees of freedom shrink to
 * n(1-r)/(1+r) - 2.
 *
 * <p>The verdict: <b>flat</b> when even the interval's steepest slope would move the series over the
 * window by no more than its noise (the residuals' standard deviation, or the series' resolution when
 * that is larger: one thread, one file, one MiB of a GC log); else <b>rises</b> or <b>falls</b> when the
 * whole interval is on one side of zero; otherwise
 * <b>no clear trend</b>: the data are too noisy, or too few, to say flat.
 *
 * @param series           what was sampled
 * @param unit             its unit
 * @param samples          samples after the warm-up that have a value
 * @param mean             their mean
 * @param spread           the residuals' standard deviation around the line
 * @param slopePerHour     the least-squares slope, unit per hour
 * @param lowPerHour       the slope's 95% interval, lower end
 * @param highPerHour      the slope's 95% interval, upper end
 * @param windowHours      from the first to the last of these samples
 * @param change           slope times window: what the line says the series moved by
 * @param autocorrelation  the residuals' lag-1 autocorrelation (0 when negative)
 * @param fitStart         the line's value at the window's start (for the report's chart)
 * @param fitEnd           the line's value at the window's end
 * @param startSeconds     the window's start, in seconds of the run
 * @param endSeconds       the window's end
 * @param verdict          flat, rises, falls, no clear trend, or too few samples
 */
public record Trend(String series, String unit, int samples, double mean, double spread, double slopePerHour, double lowPerHour,
                    double highPerHour, double windowHours, double change, double autocorrelation, double fitStart, double fitEnd,
                    double startSeconds, double endSeconds, String verdict) {

    public static final String FLAT = "flat";
    public static final String RISES = "rises";
    public static final String FALLS = "falls";
    public static final String UNCLEAR = "no clear trend";
    public static final String TOO_FEW = "too few samples";

    private static final int LEAST_SAMPLES = 4;
    private static final double MOST_AUTOCORRELATION = 0.95;

    /**
     * @param seconds    each sample's time in the run
     * @param values     each sample's value (same length)
     * @param resolution the smallest step the series can take (1 for counts); 0 for none
     */
    public static Trend of(String series, String unit, double[] seconds, double[] values, double resolution) {
        int n = values.length;
        if (n < LEAST_SAMPLES) {
            double mean = n == 0 ? 0 : Arrays.stream(values).average().orElse(0);
            double start = n == 0 ? 0 : seconds[0];
            double end = n == 0 ? 0 : seconds[n - 1];
            return new Trend(series, unit, n, mean, 0, 0, 0, 0, (end - start) / 3600, 0, 0, mean, mean, start, end, TOO_FEW);
        }
        SimpleRegression fit = new SimpleRegression();
        for (int i = 0; i < n; i++) {
            fit.addData(seconds[i] / 3600, values[i]);
        }
        double slope = fit.getSlope();
        double intercept = fit.getIntercept();
        double sxx = fit.getXSumSquares();
        double[] residuals = new double[n];
        double sse = 0;
        for (int i = 0; i < n; i++) {
            residuals[i] = values[i] - fit.predict(seconds[i] / 3600);
            sse += residuals[i] * residuals[i];
        }
        double spread = Math.sqrt(sse / (n - 2));
        double r = lag1Autocorrelation(residuals, sse);
        double inflation = (1 + r) / (1 - r);
        double effectiveDegrees = Math.max(1, n / inflation - 2);
        double standardError = sxx == 0 ? 0 : Math.sqrt(sse / (n - 2) / sxx * inflation);
        double margin = new TDistribution(effectiveDegrees).inverseCumulativeProbability(0.975) * standardError;
        double low = slope - margin;
        double high = slope + margin;
        double window = (seconds[n - 1] - seconds[0]) / 3600;
        double noise = Math.max(spread, resolution);
        String verdict;
        if (Math.max(Math.abs(low), Math.abs(high)) * window <= noise) {
            verdict = FLAT;
        } else if (low > 0) {
            verdict = RISES;
        } else if (high < 0) {
            verdict = FALLS;
        } else {
            verdict = UNCLEAR;
        }
        return new Trend(series, unit, n, Arrays.stream(values).average().orElseThrow(), spread, slope, low, high, window, slope * window, r, fit.predict(seconds[0] / 3600),
                fit.predict(seconds[n - 1] / 3600), seconds[0], seconds[n - 1], verdict);
    }

    public boolean flat() {
        return verdict.equals(FLAT);
    }

    /** The slope as a share of the mean, per hour; 0 for a mean of 0. */
    public double percentPerHour() {
        return mean == 0 ? 0 : 100 * slopePerHour / mean;
    }

    private static double lag1Autocorrelation(double[] residuals, double sse) {
        if (sse == 0) {
            return 0;
        }
        double sum = 0;
        for (int i = 1; i < residuals.length; i++) {
            sum += residuals[i] * residuals[i - 1];
        }
        // Negative autocorrelation would narrow the interval; never claim more certainty than independent samples give.
        return Math.min(MOST_AUTOCORRELATION, Math.max(0, sum / sse));
    }
}
