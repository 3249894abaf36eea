/**
 * Client-neutral value compression in Valkey GLIDE's stored format. Makes no restricted calls itself: needs
 * {@code --enable-native-access=dev.zstdjava.codec} (on the class path: {@code --enable-native-access=ALL-UNNAMED}).
 */
module dev.zstdjava.values {
    requires transitive dev.zstdjava.codec;

    exports dev.zstdjava.values;
}
