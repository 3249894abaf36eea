/**
 * Transparent value compression for the Lettuce Redis/Valkey client, in Valkey GLIDE's value format. Needs
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce} (on the class path:
 * {@code --enable-native-access=ALL-UNNAMED}).
 */
@SuppressWarnings("requires-transitive-automatic") // Lettuce ships as an automatic module
module dev.zstdjava.lettuce {
    requires transitive dev.zstdjava.codec;
    requires transitive lettuce.core;
    requires transitive io.netty.buffer;

    exports dev.zstdjava.lettuce;
}
