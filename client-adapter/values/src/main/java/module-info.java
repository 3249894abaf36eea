/**
 * Client-neutral value compression in Valkey GLIDE's stored format. Makes no restricted calls itself: needs
 * {@code --enable-native-access=dev.zstdjava.codec} (on the class path: {@code --enable-native-access=ALL-UNNAMED}).
 *
 * <p>The integrations are optional ({@code requires static}): each package that uses a client or metrics library
 * works only when that library is present, and none of them is pulled in by this module.
 */
module dev.zstdjava.values {
    requires transitive dev.zstdjava.codec;
    requires static micrometer.core;
    requires static spring.data.redis;
    requires static redis.clients.jedis;
    requires static redisson;
    requires static io.netty.buffer;
    // the supported client lines: for the adapters only (this module's and the Lettuce adapter)
    exports dev.zstdjava.values.lines to dev.zstdjava.lettuce;

    exports dev.zstdjava.values;
    exports dev.zstdjava.values.micrometer;
    exports dev.zstdjava.values.spring;
    exports dev.zstdjava.values.jedis;
    exports dev.zstdjava.values.redisson;
}
