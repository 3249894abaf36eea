/**
 * Transparent value compression for the Lettuce Redis/Valkey client, in Valkey GLIDE's value format. Needs
 * {@code --enable-native-access=dev.zstdjava.codec,dev.zstdjava.lettuce}.
 */
module dev.zstdjava.lettuce {
    requires transitive dev.zstdjava.codec;
    requires transitive lettuce.core;
    requires io.netty.buffer;

    exports dev.zstdjava.lettuce;
}
