package dev.zstdjava.values;

import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDictionary;

import java.time.Duration;
import java.util.List;

/**
 * The checked settings of a {@link DictionaryManager}, as its {@link DictionaryManager.Builder} collected them.
 * Immutable (the given dictionaries are private copies nobody writes); the constructor throws
 * {@link IllegalArgumentException} naming the first setting out of range.
 */
record DictionarySettings(DictionaryManager.Mode mode, DictionaryStore store, List<byte[]> given, int level,
                          int maxDictionarySize, long maxLoadedBytes, Duration loadTimeout, Duration refreshInterval,
                          Duration retrainInterval, boolean notifications, int dictionaryCapacity, int minSamples,
                          int maxSamples, long maxSampleBytes, int maxSampleSize, long sampleBytesPerSecond,
                          double minImprovement, double driftThreshold,
                          DictionaryManager.PublishCheck publishCheck) {
    DictionarySettings {
        if (maxDictionarySize < ServerDictionaryLayout.MIN_MAX_DICTIONARY_SIZE
                || maxDictionarySize > DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT) {
            throw new IllegalArgumentException("maxDictionarySize " + maxDictionarySize + " is out of range "
                    + ServerDictionaryLayout.MIN_MAX_DICTIONARY_SIZE + ".."
                    + DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT);
        }
        if (maxLoadedBytes < 1) {
            throw new IllegalArgumentException("maxLoadedBytes " + maxLoadedBytes + " must be positive");
        }
        if (level < Zstd.MIN_LEVEL || level > Zstd.MAX_LEVEL) {
            throw new IllegalArgumentException("zstd level " + level + " is out of range");
        }
        if (dictionaryCapacity < ZstdDictionary.MIN_CAPACITY || dictionaryCapacity > maxDictionarySize) {
            throw new IllegalArgumentException("dictionarySize " + dictionaryCapacity + " is out of range "
                    + ZstdDictionary.MIN_CAPACITY + ".." + maxDictionarySize + " (maxDictionarySize)");
        }
        if (minSamples < 10 || maxSamples < minSamples) {
            throw new IllegalArgumentException("minSamples " + minSamples + " must be at least 10 and at most"
                    + " maxSamples " + maxSamples);
        }
        if (maxSampleSize < 8 || maxSampleBytes < maxSampleSize || sampleBytesPerSecond < 1) {
            throw new IllegalArgumentException("sampling limits: maxSampleSize " + maxSampleSize + " >= 8,"
                    + " maxBytes " + maxSampleBytes + " >= maxSampleSize, bytesPerSecond "
                    + sampleBytesPerSecond + " >= 1");
        }
        if (!(minImprovement >= 0 && minImprovement <= 1) || !(driftThreshold > 0 && driftThreshold <= 1)) {
            throw new IllegalArgumentException("minImprovement " + minImprovement + " must be in 0..1 and"
                    + " driftThreshold " + driftThreshold + " in (0, 1]");
        }
        checkDuration("loadTimeout", loadTimeout);
        checkDuration("refreshInterval", refreshInterval);
        checkDuration("retrainInterval", retrainInterval);
        given = List.copyOf(given);
    }

    private static void checkDuration(String name, Duration d) {
        if (d.isNegative() || d.isZero() || d.compareTo(DictionaryManager.LONGEST_DURATION) > 0) {
            throw new IllegalArgumentException(name + " " + d + ": positive, at most "
                    + DictionaryManager.LONGEST_DURATION
                    + " (Long.MAX_VALUE ns)");
        }
    }
}
