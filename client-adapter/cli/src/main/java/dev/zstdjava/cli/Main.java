package dev.zstdjava.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code zstd-values}: see, plan and migrate value compression on a live Valkey/Redis keyspace. Read-only except
 * {@code migrate --apply}; {@code SCAN} only; every command rate-limited; its own connections plain.
 */
@Command(name = "zstd-values", mixinStandardHelpOptions = true, version = "zstd-values 0.1.0",
        subcommands = {Inspect.class, Advise.class, Migrate.class, CommandLine.HelpCommand.class},
        description = {"See, plan and migrate value compression (Valkey GLIDE's format) on a live keyspace.",
                "Read-only except 'migrate --apply'. SCAN only, never KEYS; at most --rate commands a second."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:an error (message on stderr), or migrate had failed keys", "2:bad arguments"})
public final class Main implements Runnable {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

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
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            String msg = ex instanceof ToolException ? ex.getMessage() : describe(ex);
            err.println("zstd-values " + cmd.getCommandName() + ": error: " + msg);
            err.flush();
            return ex instanceof ToolException.BadArguments ? 2 : 1;
        });
        return cl.execute(args);
    }

    private static String describe(Throwable ex) {
        if (ex instanceof io.lettuce.core.RedisCommandExecutionException) {
            return "the server refused a command: " + ex.getMessage();
        }
        StringBuilder b = new StringBuilder(ex.getClass().getSimpleName());
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null) {
                b.append(": ").append(t.getMessage());
                break;
            }
        }
        return b.toString();
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
