package dev.zstdjava.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The contestants (JMH method names, "c" for the C reference): short column names and what each one is. */
final class Contestants {
    /** key to its description, in report order */
    static final Map<String, String> LABEL;
    /** key to its column name */
    static final Map<String, String> SHORT;

    static {
        Map<String, String> label = new LinkedHashMap<>();
        Map<String, String> shortName = new LinkedHashMap<>();
        String[][] all = {
            {"c", "C", "C calling the library directly (same build as zstd-java, gcc -O2)"},
            {"zstdjava_segment", "seg", "zstd-java MemorySegment in/out (native segments)"},
            {"zstdjava_arrayDst", "arr+dst", "zstd-java byte[] with caller destination"},
            {"zstdjava_arrayNew", "arr→new", "zstd-java byte[] -> new byte[] (instance)"},
            {"zstdjava_buffer", "buf", "zstd-java ByteBuffer (direct)"},
            {"zstdjava_static", "static", "zstd-java static Zstd.compress/decompress(byte[])"},
            {"zstdjni_static", "jni static",
                "zstd-jni static Zstd.compress(byte[], level) / Zstd.decompress(byte[], size)"},
            {"zstdjni_ctxArray", "jni ctx[]", "zstd-jni reused ZstdCompressCtx/ZstdDecompressCtx on byte[]"},
            {"zstdjni_ctxDirect", "jni best", "zstd-jni reused ctx on direct ByteBuffers (its best path)"},
            {"lz4java_jni", "lz4-java",
                "lz4-java JNI fastResetCompressor / highFastResetCompressor / safeDecompressor, byte[]+dst"},
            {"lz4java_jniArrayNew", "lz4-java new", "lz4-java JNI, byte[] -> new byte[]"},
            {"aircompressor_java", "air java", "aircompressor-v3 pure Java, byte[]+dst"},
            {"aircompressor_native", "air ffm",
                "aircompressor-v3 FFM binding to its bundled native library, native segments"},
        };
        for (String[] c : all) {
            shortName.put(c[0], c[1]);
            label.put(c[0], c[2]);
        }
        LABEL = Collections.unmodifiableMap(label);
        SHORT = Collections.unmodifiableMap(shortName);
    }

    private Contestants() {
    }

    /** @return the other Java library's fastest form, the one zstd-java is measured against */
    static String bestOf(String codec) {
        return codec.equals("zstd") ? "zstdjni_ctxDirect" : "lz4java_jni";
    }

    /** @return the setting of the headline tables and charts */
    static String headSetting(String codec) {
        return codec.equals("zstd") ? "3" : "default";
    }
}
