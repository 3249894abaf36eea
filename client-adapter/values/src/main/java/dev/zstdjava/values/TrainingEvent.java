package dev.zstdjava.values;

import java.time.Instant;

/**
 * One step of dictionary training in a {@link DictionaryManager}. Immutable.
 *
 * @param time         when it happened
 * @param kind         what happened
 * @param dictionaryId the dictionary trained, adopted or rejected (0 when training failed)
 * @param samples      samples used: training set plus held-out set
 * @param savedBefore  saved fraction (0..1) of the held-out values with the dictionary current before (or without
 *                     one), header included, over their whole length (a value longer than its sample counts the
 *                     rest as compressing as the sample does before, with either dictionary); NaN when not measured
 * @param savedAfter   the same with the new dictionary; NaN when not measured
 * @param reason       why, in words (for {@link Kind#REJECTED} and {@link Kind#FAILED}); otherwise a summary
 */
public record TrainingEvent(Instant time, Kind kind, long dictionaryId, int samples, double savedBefore,
        double savedAfter, String reason) {

    /** What a training step did. */
    public enum Kind {
        /** A dictionary was trained from the samples (then checked on held-out samples). */
        TRAINED,
        /**
         * The trained dictionary saved enough more and was published; it compresses new values now, or, when reading
         * it back from the store failed just then (the reason says so), from the store's next check on.
         */
        ADOPTED,
        /** The trained dictionary was not published: not enough better, or its id was taken. */
        REJECTED,
        /** Training did not produce a dictionary (too few or too small samples, or an error). */
        FAILED
    }
}
