package dev.zstdjava.bench.e2e;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress bar on stderr: redrawn in place every 250 ms on a terminal; on anything else (a pipe, a log file,
 * a test) one line per finished step instead. Progress is measured in planned seconds of work.
 */
final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final boolean terminal;
    private final double totalWork;
    private final long startNanos = System.nanoTime();
    private final Thread painter;
    private volatile double doneWork;
    private volatile double stepWork;
    private volatile long stepStart;
    private volatile String label = "starting";
    private volatile boolean closed;

    /**
     * {@code Console.isTerminal()} where it exists (JDK 22+, where {@code System.console()} is also non-null when
     * redirected); on JDK 21, which this module is compiled for, a console exists only on a terminal.
     */
    private static boolean isTerminal(java.io.Console c) {
        try {
            return (boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    Progress(PrintStream out, double totalWork, boolean enabled) {
        this.out = out;
        this.totalWork = Math.max(totalWork, 1e-9);
        java.io.Console c = System.console();
        this.terminal = enabled && c != null && isTerminal(c);
        if (terminal) {
            painter = Thread.ofPlatform().daemon().name("e2e-progress").start(this::paintLoop);
        } else {
            painter = null;
        }
    }

    /** Starts a step expected to take {@code work} seconds. */
    void begin(String label, double work) {
        this.label = label;
        this.stepWork = work;
        this.stepStart = System.nanoTime();
    }

    /** Ends the current step. */
    void end() {
        doneWork += stepWork;
        stepWork = 0;
        if (!terminal) {
            out.printf(Locale.ROOT, "e2e: %3.0f%% %s done (%s elapsed)%n", 100 * fraction(), label,
                    clock((System.nanoTime() - startNanos) / 1e9));
        }
    }

    void message(String text) {
        if (terminal) {
            out.print("\r\033[K");
        }
        out.println("e2e: " + text);
    }

    private double fraction() {
        double inStep = Math.min(stepWork, (System.nanoTime() - stepStart) / 1e9);
        return Math.min(1.0, (doneWork + Math.max(0, inStep)) / totalWork);
    }

    private void paintLoop() {
        while (!closed) {
            paint();
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void paint() {
        double f = fraction();
        int width = 30;
        int filled = (int) Math.round(f * width);
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        double left = f > 0.01 ? elapsed / f - elapsed : totalWork;
        out.printf(Locale.ROOT, "\r\033[K[%s%s] %3.0f%%  %s elapsed, ~%s left  %s", "#".repeat(filled),
                ".".repeat(width - filled), 100 * f, clock(elapsed), clock(left), label);
        out.flush();
    }

    private static String clock(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    @Override
    public void close() {
        closed = true;
        if (painter != null) {
            painter.interrupt();
            try {
                painter.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.print("\r\033[K");
            out.flush();
        }
    }
}
