package dev.zstdjava.bench.report;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Turns a results folder (JMH JSON files from {@code suite}, {@code cref.jsonl} from the C reference,
 * {@code alloc-probe.jsonl}, {@code env.properties}) into a Markdown report with PNG charts beside it, and prints
 * the headline table. Loading is {@link Measurements}, the targets {@link Verdicts}, the text {@link Markdown}, the
 * charts {@link ReportCharts}.
 *
 * <p>Charts go to a folder named after OUT.md without its extension (docs/reports/jmh.md -> docs/reports/jmh/).
 * Every report opens with {@link Generated#notice}: it is rewritten whole and never edited by hand.
 */
@Command(name = "report",
        description = "Turns a results folder into a Markdown report with PNG charts beside it.")
public final class Report implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "results folder (as written by suite)")
    Path dir;

    @Parameters(index = "1", paramLabel = "OUT.md", description = "the report; charts go to OUT/ beside it")
    Path out;

    @Option(names = "--title", description = "first heading (default: ${DEFAULT-VALUE})")
    String title = "zstd-java benchmarks";

    @Option(names = "--note", description = "a quoted note under the title: how and when the run was made")
    String note;

    @Option(names = "--command", description = "the command that writes this report, named in its 'do not edit' "
            + "line (default: ${DEFAULT-VALUE})")
    String command = "benchmarks.jar report";

    @Override
    public Integer call() throws IOException {
        String headline = write(dir, out, title, note, command);
        System.out.println(headline);
        System.out.println("report: " + out.toAbsolutePath());
        return 0;
    }

    /**
     * Writes the report and its charts.
     *
     * @param command the command that writes it (its "do not edit" line names it)
     * @return the headline tables
     */
    public static String write(Path dir, Path out, String title, String note, String command) throws IOException {
        Measurements results = Measurements.load(dir);
        Path chartDir = chartDir(out);
        List<String> charts = new ReportCharts(results).write(chartDir);
        Markdown md = new Markdown(results);
        if (out.toAbsolutePath().getParent() != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
        }
        Files.writeString(out, md.render(title, note, command, chartDir, charts));
        return md.headline();
    }

    static Path chartDir(Path out) {
        String n = out.getFileName().toString();
        String base = n.endsWith(".md") ? n.substring(0, n.length() - 3) : n + "-charts";
        return (out.getParent() == null ? Path.of(".") : out.getParent()).resolve(base);
    }
}
