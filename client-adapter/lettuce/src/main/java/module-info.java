/**
 * Transparent value compression for the Lettuce Redis/Valkey client, in Valkey GLIDE's value format, on top of the
 * client-neutral {@code dev.zstdjava.values} (whose {@code CompressionConfig}, {@code ValueCompressor} and
 * {@code CompressionStats} it uses in its API). Needs
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce} (on the class path:
 * {@code --enable-native-access=ALL-UNNAMED}).
 */
@SuppressWarnings("requires-transitive-automatic") // Lettuce ships as an automatic module
module dev.zstdjava.lettuce {
    requires transitive dev.zstdjava.values;
    requires transitive lettuce.core;
    requires transitive io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;

    exports dev.zstdjava.lettuce;
}
