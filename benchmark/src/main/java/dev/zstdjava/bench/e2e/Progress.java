package dev.zstdjava.bench.e2e;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress on stderr, measured in planned seconds of work: on a terminal a progress bar (the progressbar library)
 * with the current step, elapsed time and time left; on anything else (a pipe, a log file, a test) one line per
 * finished step instead, since a redrawn bar would fill a log with carriage returns.
 */
final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final ProgressBar bar;
    private final long startNanos = System.nanoTime();
    private final double totalWork;
    private double doneWork;
    private double stepWork;
    private String label = "starting";

    Progress(PrintStream out, double totalWork, boolean enabled) {
        this.out = out;
        this.totalWork = Math.max(totalWork, 1e-9);
        java.io.Console c = System.console();
        boolean terminal = enabled && c != null && c.isTerminal();
        this.bar = terminal ? new ProgressBarBuilder()
                .setTaskName("e2e")
                .setInitialMax(Math.max(1, Math.round(totalWork * 1000)))
                .setUnit(" s", 1000)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .continuousUpdate()
                .setConsumer(new ConsoleProgressBarConsumer(out))
                .clearDisplayOnFinish()
                .build() : null;
    }

    /** Starts a step expected to take {@code work} seconds. */
    void begin(String label, double work) {
        this.label = label;
        this.stepWork = work;
        if (bar != null) {
            bar.setExtraMessage(label);
        }
    }

    /** Ends the current step. */
    void end() {
        doneWork += stepWork;
        if (bar != null) {
            bar.stepTo(Math.round(doneWork * 1000));
        } else {
            out.printf(Locale.ROOT, "e2e: %3.0f%% %s done (%s elapsed)%n", 100 * Math.min(1, doneWork / totalWork),
                    label, clock((System.nanoTime() - startNanos) / 1e9));
        }
        stepWork = 0;
    }

    /** Prints a line of its own (above the bar on a terminal). */
    void message(String text) {
        if (bar != null) {
            out.print("\r\033[K");
        }
        out.println("e2e: " + text);
    }

    private static String clock(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
