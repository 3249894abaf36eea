package dev.zstdjava.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code zstd-values}: see, plan and migrate value compression on a live Valkey/Redis keyspace. Read-only except
 * {@code migrate --apply}; {@code SCAN} only; every command rate-limited; its own connections plain.
 */
@Command(name = "zstd-values", mixinStandardHelpOptions = true, version = "zstd-values 0.1.0",
        subcommands = {Inspect.class, Advise.class, Migrate.class, CommandLine.HelpCommand.class},
        description = {"See, plan and migrate value compression (Valkey GLIDE's format) on a live keyspace.",
                "Read-only except 'migrate --apply'. SCAN only, never KEYS; at most --rate commands a second."})
public final class Main implements Runnable {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The exit codes, as every command's help lists them. */
    private static final Map<String, String> EXIT_CODES = exitCodes();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = run(out, err, args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the tool with {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new Main());
        listExitCodes(cl);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            err.println("zstd-values " + cmd.getCommandName() + ": error: " + Names.escape(describe(ex)));
            err.flush();
            return ex instanceof ToolException.BadArguments ? 2 : 1;
        });
        return cl.execute(args);
    }

    private static Map<String, String> exitCodes() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", "done");
        codes.put("1", "an error (the message on stderr): the server unreachable, authentication failed, a command"
                + " refused or timed out, inspect get of a value that does not decode, a cluster whose topology changed"
                + " during the run; or migrate had failed keys");
        codes.put("2", "bad arguments: a malformed URI, an option out of its range (named with its limit),"
                + " options that do not go together, or a --cursor that does not match the server's topology or the"
                + " options of the run that printed it");
        return Collections.unmodifiableMap(codes);
    }

    /** Lists {@link #EXIT_CODES} in the help of {@code cl} and of each of its commands. */
    private static void listExitCodes(CommandLine cl) {
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(EXIT_CODES);
        cl.getSubcommands().values().forEach(Main::listExitCodes);
    }

    /**
     * @return {@code ex} in one line: the tool's own message, the server's refusal, or the exception's name and the
     *         distinct messages along its cause chain ({@link Keyspace#causes})
     */
    static String describe(Throwable ex) {
        if (ex instanceof ToolException) {
            return ex.getMessage();
        }
        if (ex instanceof io.lettuce.core.RedisCommandExecutionException) {
            return "the server refused a command: " + ex.getMessage();
        }
        String name = ex.getClass().getSimpleName();
        String causes = Keyspace.causes(ex);
        return causes.equals(name) ? name : name + ": " + causes;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: inspect, advise or migrate");
    }

    /** Prints {@code tree} as JSON. */
    static void printJson(PrintWriter out, Object tree) {
        try {
            out.println(JSON.writeValueAsString(tree));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new ToolException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** @return {@code n} bytes in B, KiB or MiB, for tables */
    static String bytes(double n) {
        if (Math.abs(n) < 1024) {
            return String.format(Locale.ROOT, "%.0f B", n);
        }
        if (Math.abs(n) < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", n / 1024);
        }
        return String.format(Locale.ROOT, "%.1f MiB", n / (1024 * 1024));
    }
}
