package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.example.ExampleApplication;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Startup failures of a real application, each in a JVM of its own (a native library that failed to load stays
 * failed for the JVM): the message names what went wrong and the property to change. No server is needed: the
 * compressor is made, and fails, before anything connects.
 */
class StartupFailureTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";

    @Test
    void anUnloadableNativeLibraryFailsStartupNamingTheLoaderAndTheOffSwitch() throws Exception {
        Run r = start(List.of("-Dzstdjava.lz4.path=/nonexistent/liblz4.so"), P + "enabled=true", P + "backend=lz4");
        assertThat(r.exit).as(r.output).isNotZero();
        // Boot's failure analysis: the loader's message, then what to change
        assertThat(r.output).contains("APPLICATION FAILED TO START");
        String analysis = r.output.substring(r.output.indexOf("APPLICATION FAILED TO START"));
        assertThat(analysis.substring(analysis.indexOf("Description:"), analysis.indexOf("Action:")))
                .contains("zstdjava.lz4.path=/nonexistent/liblz4.so");
        assertThat(analysis.substring(analysis.indexOf("Action:"))).contains(P + "enabled=false");
    }

    @Test
    void anUnknownValueFailsStartupNamingThePropertyAndTheAllowedValues() throws Exception {
        Run r = start(List.of(), P + "enabled=true", P + "backend=brotli");
        assertThat(r.exit).as(r.output).isNotZero();
        assertThat(r.output).contains(P + "backend").contains("ZSTD").contains("LZ4");
        Run mode = start(List.of(), P + "enabled=true", P + "dictionaries.mode=sometimes");
        assertThat(mode.output).contains(P + "dictionaries.mode").contains("MANAGED").contains("SHARED");
    }

    @Test
    void anOutOfRangeValueIsAnalysedToo() throws Exception {
        Run r = start(List.of(), P + "enabled=true", P + "level=99");
        assertThat(r.exit).as(r.output).isNotZero();
        String analysis = r.output.substring(r.output.indexOf("APPLICATION FAILED TO START"));
        assertThat(analysis).contains("invalid value 99 of " + P + "level").contains("Action:")
                .contains("allowed: -131072..22");
        // a switch that Boot would bind as true but its conditions read as not true
        Run on = start(List.of(), P + "enabled=true", P + "adaptive.enabled=on");
        assertThat(on.exit).as(on.output).isNotZero();
        String switchAnalysis = on.output.substring(on.output.indexOf("APPLICATION FAILED TO START"));
        assertThat(switchAnalysis.substring(switchAnalysis.indexOf("Description:"), switchAnalysis.indexOf("Action:")))
                .contains("invalid value on of " + P + "adaptive.enabled");
        assertThat(switchAnalysis.substring(switchAnalysis.indexOf("Action:"))).contains("allowed: true, false");
    }

    @Test
    void compressionOffStartsWithoutLoadingTheLibrary() throws Exception {
        Run r = start(List.of("-Dzstdjava.zstd.path=/nonexistent/libzstd.so"), P + "enabled=false");
        assertThat(r.exit).as(r.output).isZero();
        assertThat(r.output).contains("Started ExampleApplication");
    }

    private record Run(int exit, String output) {}

    /** Runs the example application in a new JVM (this test's class path) that exits once started. */
    private static Run start(List<String> jvmArgs, String... properties) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ExampleApplication.class.getName());
        cmd.add("--spring.main.web-application-type=none");
        // nothing listens here: a started application does not connect until used
        cmd.add("--spring.data.redis.port=1");
        cmd.add("--spring.main.register-shutdown-hook=false");
        for (String p : properties) {
            cmd.add("--" + p);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the application did not exit: " + new String(out, StandardCharsets.UTF_8));
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
