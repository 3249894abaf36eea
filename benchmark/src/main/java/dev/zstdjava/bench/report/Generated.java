package dev.zstdjava.bench.report;

import java.nio.file.Path;

/**
 * Where the committed generated reports live and the line each generated report carries under its title. The JMH
 * report ({@code ./bench full}) and the end-to-end reports ({@code ./e2e}, {@code ./e2e --link RATE}) are written
 * whole by their tools into {@link #DOCS_REPORTS}; nothing there is edited by hand, and no tool writes anywhere else
 * in {@code docs/}. Readings of the numbers are kept by hand in {@code docs/benchmarks.md}, their history in
 * {@code CHANGELOG.md}.
 */
public final class Generated {
    /** The folder of the committed generated reports, relative to the repository root. */
    public static final Path DOCS_REPORTS = Path.of("docs", "reports");

    private Generated() {
    }

    /**
     * @param command the command that writes the report, as a user types it (e.g. {@code ./bench full})
     * @return one Markdown paragraph: the report is generated, by what, and must not be edited
     */
    public static String notice(String command) {
        return "**Generated file: do not edit.** `" + command + "` rewrites it whole; the reading of these numbers "
                + "is kept by hand in docs/benchmarks.md, their history in CHANGELOG.md.";
    }
}
