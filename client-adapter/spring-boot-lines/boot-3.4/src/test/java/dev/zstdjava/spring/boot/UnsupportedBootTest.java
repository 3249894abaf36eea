package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On Spring Boot 3.4, one line older than supported: Boot 3.4 cannot read the conditions on a boolean property the
 * auto-configurations use, and would drop them unseen. Compression enabled fails startup naming the supported range,
 * before any bean is made; compression off (the default) applies nothing, so Boot's own templates stay. No server:
 * neither case connects.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnsupportedBootTest {
    private static final String ENABLED = RedisCompressionProperties.PREFIX + ".enabled";

    /** An application with Boot's auto-configuration and Spring Data Redis, as a Boot 3.4 service has. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
    }

    private static SpringApplicationBuilder app(String... properties) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=1", "spring.main.register-shutdown-hook=false")
                .properties(properties);
    }

    @Test
    void runsOnBoot34WhichLacksTheCapability() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("zstdjava.boot.version"))
                .startsWith("3.4.");
        assertThat(ClassUtils.isPresent(BootLines.CAPABILITY, null)).isFalse();
    }

    @Test
    void compressionEnabledFailsStartupNamingTheSupportedRange(CapturedOutput output) {
        assertThatThrownBy(() -> app(ENABLED + "=true").run()).rootCause()
                .isInstanceOf(RedisCompressionException.class)
                .hasMessageContaining("supports Spring Boot 3.5 to 4.1")
                .hasMessageContaining("runs Spring Boot " + SpringBootVersion.getVersion());
        // Boot's failure analysis: the problem, then what to change
        String analysis = output.getAll().substring(output.getAll().indexOf("APPLICATION FAILED TO START"));
        assertThat(analysis.substring(analysis.indexOf("Description:"), analysis.indexOf("Action:")))
                .contains("Spring Boot 3.5 to 4.1");
        assertThat(analysis.substring(analysis.indexOf("Action:"))).contains("upgrade to Spring Boot 3.5.x");
    }

    /**
     * Compression off applies nothing, also with a value that does not bind: the off mode's check of the values runs
     * on Boot 3.4 too, names it, and does not fail startup.
     */
    @Test
    void compressionOffAppliesNothing(CapturedOutput output) {
        String level = RedisCompressionProperties.PREFIX + ".level=abc";
        for (String[] properties : new String[][] {{}, {ENABLED + "=false"}, {ENABLED + "=false", level}}) {
            try (ConfigurableApplicationContext c = app(properties).run()) {
                assertThat(c.getBeanNamesForType(ValueCompressor.class)).isEmpty();
                assertThat(c.getBeanNamesForType(CacheValueCompression.class)).isEmpty();
                assertThat(c.getBean("redisTemplate")).isExactlyInstanceOf(RedisTemplate.class);
                assertThat(c.getBean("stringRedisTemplate")).isExactlyInstanceOf(StringRedisTemplate.class);
            }
        }
        assertThat(output.getAll()).contains("properties whose value does not bind").contains(level + " (");
    }
}
