package dev.zstdjava.values;

import java.util.List;

/**
 * Training counters of a {@link DictionaryManager} and its most recent events. Immutable snapshot.
 *
 * @param trained  dictionaries trained
 * @param adopted  trained dictionaries published and made current
 * @param rejected trained dictionaries not published
 * @param failed   training attempts that produced no dictionary
 * @param samples  samples held in the reservoir now
 * @param recent   the last events, oldest first (at most 64)
 */
public record TrainingStats(long trained, long adopted, long rejected, long failed, int samples,
        List<TrainingEvent> recent) {
}
