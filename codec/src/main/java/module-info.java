/**
 * zstd-java codecs: zstd and LZ4 over the FFM API. Needs {@code --enable-native-access=dev.zstdjava.codec}.
 */
module dev.zstdjava.codec {
    exports dev.zstdjava;
    exports dev.zstdjava.zstd;
    exports dev.zstdjava.lz4;
}
