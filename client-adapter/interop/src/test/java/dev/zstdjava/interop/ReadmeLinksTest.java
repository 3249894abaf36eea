package dev.zstdjava.interop;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every relative link of the README, the changelog and the {@code docs/} pages (sub-folders included) names a file
 * that exists and, when it carries an anchor into a Markdown page, a heading of that page (GitHub's heading slugs);
 * generated reports live in {@code docs/reports/} and only there; and the README's quick start names the test command
 * {@code .ci/run} runs. Needs no server: part of every test run.
 */
class ReadmeLinksTest {
    static final Path ROOT = ReadmeSnippetsTest.README.getParent();
    static final Path REPORTS = ReadmeSnippetsTest.DOCS.resolve("reports");
    /** The line {@code ./bench full} and {@code ./e2e} write under a report's title (benchmark's {@code Generated}). */
    static final String GENERATED = "**Generated file: do not edit.**";

    /** {@code [text](target)} or {@code ![alt](target "title")}; the target has no spaces. */
    static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*])*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");

    // The lines of a page, those of fenced code blocks (and the fences) blanked: index + 1 is the line number.
    static List<String> prose(Path page) throws Exception {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            boolean fence = FENCE.matcher(line).find();
            fenced ^= fence;
            out.add(fence || fenced ? "" : line);
        }
        assertFalse(fenced, page + ": a code fence is never closed");
        return out;
    }

    // GitHub's anchor of a heading: Markdown links and code marks taken out, lower case, every character but
    // letters, digits, '-', '_' and spaces dropped, spaces made '-'. The n-th repeat of a slug gets "-n".
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replace("`", "").toLowerCase();
        StringBuilder b = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.appendCodePoint(c);
            } else if (c == ' ') {
                b.append('-');
            }
        });
        return b.toString();
    }

    // The anchors a Markdown page offers.
    static Set<String> anchors(Path page) throws Exception {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(page)) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String s = slug(h.group(2));
                int n = seen.merge(s, 1, Integer::sum) - 1;
                out.add(n == 0 ? s : s + "-" + n);
            }
        }
        return out;
    }

    @Test
    void slugsFollowGitHub() {
        assertEquals("over-a-shaped-network-link---link-rate", slug("Over a shaped network link (`--link RATE`)"));
        assertEquals("jdk-21-against-jdk-25-the-same-jars", slug("JDK 21 against JDK 25 (the same jars)"));
        assertEquals("command-line-zstd-values", slug("Command line: `./zstd-values`"));
        assertEquals("see-the-readme", slug("See [the README](../README.md)"));
    }

    @Test
    void everyRelativeLinkResolves() throws Exception {
        List<Path> pages = new ArrayList<>(ReadmeSnippetsTest.pages());
        pages.add(ROOT.resolve("CHANGELOG.md"));
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            int lineNo = 0;
            for (String line : prose(page)) {
                lineNo++;
                Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                        continue; // https:, mailto: ... : not a file of this repository
                    }
                    checked++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    String anchor = hash < 0 ? null : target.substring(hash + 1);
                    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(page) + ":" + lineNo + ": " + target;
                    if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
                        broken.add(where + " (no such file)");
                    } else if (anchor != null && resolved.toString().endsWith(".md")
                            && !anchors(resolved).contains(anchor)) {
                        broken.add(where + " (no such heading; there are " + anchors(resolved) + ")");
                    }
                }
            }
        }
        assertTrue(checked > 20, "links checked: " + checked);
        assertEquals(List.of(), broken, "broken relative links");
    }

    @Test
    void generatedReportsLiveInDocsReportsAndNowhereElse() throws Exception {
        // a page a tool rewrites and a page a person edits are never the same page
        List<String> misplaced = new ArrayList<>();
        int reports = 0;
        for (Path page : ReadmeSnippetsTest.pages()) {
            boolean generated = Files.readString(page).contains(GENERATED);
            boolean inReports = page.startsWith(REPORTS);
            reports += generated && inReports ? 1 : 0;
            if (generated != inReports) {
                misplaced.add(ROOT.relativize(page) + (generated ? ": generated, outside docs/reports/"
                        : ": in docs/reports/ without the generated line"));
            }
        }
        assertEquals(List.of(), misplaced);
        for (String report : List.of("jmh.md", "end-to-end.md")) {
            assertTrue(Files.isRegularFile(REPORTS.resolve(report)), "docs/reports/" + report + " is committed");
        }
        assertTrue(reports >= 2, "generated reports found: " + reports);
    }

    @Test
    void ciRunsTheReadmesTestCommand() throws Exception {
        // the quick start's two commands: ./bench, then the full test run
        String readme = Files.readString(ReadmeSnippetsTest.README);
        int start = readme.indexOf("\n## Quick start\n");
        assertTrue(start >= 0, "the README has a Quick start section");
        int end = readme.indexOf("\n## ", start + 1);
        Matcher block = Pattern.compile("```\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme.substring(start, end));
        List<String> commands = new ArrayList<>();
        while (block.find()) {
            commands.add(block.group(1).strip());
        }
        assertEquals(2, commands.size(), "two quick-start commands: " + commands);
        assertEquals("./bench", commands.get(0));
        List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run")).stream().map(String::strip).toList();
        assertTrue(ci.contains(commands.get(1)), ".ci/run runs the README's test command '" + commands.get(1) + "'");
    }
}
