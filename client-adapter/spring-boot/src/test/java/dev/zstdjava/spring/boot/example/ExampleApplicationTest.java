package dev.zstdjava.spring.boot.example;

import dev.zstdjava.spring.boot.StoredBytes;
import dev.zstdjava.testkit.GlideScript;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.zstd.Zstd;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.info.InfoEndpoint;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boots the example application against a real server with only {@code zstd-java.redis.compression.enabled=true}
 * set, and checks what it stores: cached values (JDK and JSON) and {@code redisTemplate} values carry GLIDE's header
 * and read back equal, also through the real GLIDE (Python) client; a set member stays plain; a
 * {@code stringRedisTemplate} counter increments; the meters are registered; the info endpoint shows the library.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ExampleApplicationTest {
    private static final byte[] HEADER = {0, 1, 2, 0, 1};
    private static final Path GLIDE = Path.of(System.getProperty("zstdjava.glideScript",
            "../lettuce/src/test/python/glide_interop.py"));

    private static RedisServer server;
    private static ConfigurableApplicationContext app;

    @TempDir
    Path tmp;

    @BeforeAll
    static void boot() {
        server = RedisServer.start();
        app = new SpringApplicationBuilder(ExampleApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=" + RedisServer.HOST, "spring.data.redis.port=" + server.port(),
                        "management.endpoints.web.exposure.include=info",
                        "zstd-java.redis.compression.enabled=true")
                .run();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void runsOnTheBootVersionOfThisBuild() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("zstdjava.boot.version"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void valuesAreStoredInGlidesFormatAndGlideReadsThem() throws Exception {
        RedisConnectionFactory f = app.getBean(RedisConnectionFactory.class);
        Catalog catalog = app.getBean(Catalog.class);
        String product = catalog.product(42);
        Map<String, Object> profile = catalog.profile("ada");
        int loads = catalog.loads();
        // Spring Data Redis may write cache entries asynchronously (Lettuce): wait for them before reading again
        StoredBytes.await(f, utf8("products::42"));
        StoredBytes.await(f, utf8("profiles::ada"));
        assertThat(catalog.product(42)).isEqualTo(product);
        assertThat(catalog.profile("ada")).isEqualTo(profile);
        assertThat(catalog.loads()).isEqualTo(loads); // both served from the cache

        RedisTemplate<Object, Object> template = app.getBean("redisTemplate", RedisTemplate.class);
        String greeting = "hello from the example application; ".repeat(30);
        template.opsForValue().set("greeting", greeting);
        assertThat(template.opsForValue().get("greeting")).isEqualTo(greeting);
        byte[] templateKey = ((RedisSerializer<Object>) template.getKeySerializer()).serialize("greeting");

        String member = "a member of a set, long enough to have been compressed by mistake; ".repeat(3);
        template.opsForSet().add("tags", member);

        // a script's arguments go out as the application serialized them
        template.execute(new org.springframework.data.redis.core.script.DefaultRedisScript<>(
                "redis.call('SET', KEYS[1], ARGV[1]) return 1", Long.class), List.of("scripted"), member);

        StringRedisTemplate strings = app.getBean(StringRedisTemplate.class);
        assertThat(strings.opsForValue().increment("visits")).isEqualTo(1);
        assertThat(strings.opsForValue().increment("visits")).isEqualTo(2);

        byte[] jdkProduct = RedisSerializer.java().serialize(product);
        byte[] jsonProfile = RedisSerializer.json().serialize(profile);
        try (RedisConnection c = f.getConnection()) {
            assertThat(c.stringCommands().get(utf8("products::42"))).startsWith(HEADER);
            assertThat(c.stringCommands().get(utf8("profiles::ada"))).startsWith(HEADER);
            assertThat(c.stringCommands().get(templateKey)).startsWith(HEADER);
            Set<byte[]> members = c.setCommands().sMembers(((RedisSerializer<Object>) template.getKeySerializer())
                    .serialize("tags"));
            assertThat(members).singleElement().isEqualTo(RedisSerializer.java().serialize(member));
            assertThat(c.stringCommands().get(utf8("visits"))).isEqualTo(utf8("2"));
            assertThat(c.stringCommands().get(((RedisSerializer<Object>) template.getKeySerializer())
                    .serialize("scripted"))).isEqualTo(RedisSerializer.java().serialize(member));
            // the template's key is JDK-serialized (not UTF-8): GLIDE reads a server-side copy of the stored bytes
            assertThat(c.keyCommands().copy(templateKey, utf8("glide:greeting"), true)).isTrue();
        }

        Map<String, byte[]> keys = new LinkedHashMap<>();
        keys.put("products::42", null);
        keys.put("profiles::ada", null);
        keys.put("glide:greeting", null);
        Map<String, byte[]> read = readEntries(GlideScript.run(GLIDE, tmp, "read", server.port(), "zstd", keys));
        assertThat(read.get("products::42")).isEqualTo(jdkProduct);
        assertThat(new String(read.get("profiles::ada"), StandardCharsets.UTF_8))
                .isEqualTo(new String(jsonProfile, StandardCharsets.UTF_8));
        assertThat(RedisSerializer.java().deserialize(read.get("glide:greeting"))).isEqualTo(greeting);
    }

    @Test
    void metersAndInfo() {
        RedisTemplate<?, ?> template = app.getBean("redisTemplate", RedisTemplate.class);
        app.getBean(StringRedisTemplate.class).hasKey("warm-up");
        app.getBean(Catalog.class).product(7);
        MeterRegistry registry = app.getBean(MeterRegistry.class);
        assertThat(registry.get("zstdjava.values.compressed").functionCounter().count()).isGreaterThan(0);
        assertThat(registry.get("zstdjava.values.compression.saved").functionCounter().count()).isGreaterThan(0);
        assertThat(template).isNotNull();

        Map<String, Object> info = app.getBean(InfoEndpoint.class).info();
        assertThat(info).containsKey("zstd-java");
        @SuppressWarnings("unchecked")
        Map<String, Object> zstd = (Map<String, Object>) info.get("zstd-java");
        assertThat(zstd).containsEntry("backend", "zstd").containsEntry("level", 3);
        @SuppressWarnings("unchecked")
        Map<String, Object> library = (Map<String, Object>) zstd.get("library");
        assertThat(library).containsEntry("name", "zstd").containsEntry("version", Zstd.library().version())
                .containsEntry("location", Zstd.library().location());
        @SuppressWarnings("unchecked")
        Map<String, Object> counters = (Map<String, Object>) zstd.get("counters");
        assertThat((Long) counters.get("compressed")).isGreaterThan(0);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Parses the script's output: [u32 key length][key][i32 value length, -1 = nil][value], repeated. */
    private static Map<String, byte[]> readEntries(Path file) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            while (in.available() > 0) {
                byte[] k = in.readNBytes(in.readInt());
                int n = in.readInt();
                out.put(new String(k, StandardCharsets.UTF_8), n < 0 ? null : in.readNBytes(n));
            }
        }
        return out;
    }
}
