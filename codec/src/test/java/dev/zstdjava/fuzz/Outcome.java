package dev.zstdjava.fuzz;

import dev.zstdjava.CompressionException;
import java.util.Arrays;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * What one decoding call did with fuzzed input: its output, or the documented exception it threw. Any other
 * exception or error (an index out of bounds, a null pointer, an illegal state, an assertion) is not caught and so
 * becomes a finding of the fuzzer.
 */
public record Outcome(byte[] output, CompressionException error) {
    private static final byte[] ZEROS = new byte[1 << 18];

    /** Runs {@code call}: malformed, truncated or oversized input must end in a {@link CompressionException}. */
    public static Outcome of(Supplier<byte[]> call) {
        try {
            return new Outcome(call.get(), null);
        } catch (CompressionException e) {
            return new Outcome(null, e);
        }
    }

    /**
     * Runs a call that decodes into {@code dst[off, off+len)} and returns how many bytes it wrote there: the array
     * is zeroed first, and any byte written outside the range is a finding.
     */
    public static Outcome ofRange(byte[] dst, int off, int len, IntSupplier call) {
        return of(() -> {
            Arrays.fill(dst, (byte) 0);
            int n = call.getAsInt();
            untouched(dst, 0, off);
            untouched(dst, off + len, dst.length);
            if (n < 0 || n > len) {
                throw new AssertionError("reported " + n + " bytes written into a range of " + len);
            }
            return Arrays.copyOfRange(dst, off, off + n);
        });
    }

    private static void untouched(byte[] dst, int from, int to) {
        // Arrays.mismatch rather than a loop: JDK code is not instrumented, so the check costs the fuzzer nothing
        int at = Arrays.mismatch(dst, from, to, to - from <= ZEROS.length ? ZEROS : new byte[to - from], 0, to - from);
        if (at >= 0) {
            throw new AssertionError("byte " + (from + at) + " outside the destination range was written");
        }
    }

    public boolean ok() {
        return output != null;
    }

    /** Both calls decoded the same input: when both succeeded, their outputs must be the same bytes. */
    public static void sameWhenBothOk(String what, Outcome a, Outcome b) {
        if (a.ok() && b.ok() && !Arrays.equals(a.output, b.output)) {
            throw new AssertionError(what + ": " + a.output.length + " bytes against " + b.output.length
                    + " bytes, or the same length with different bytes");
        }
    }

    /** {@code must} decoded what {@code reference} decoded, with the same bytes. */
    public static void okIfOk(String what, Outcome reference, Outcome must) {
        if (reference.ok() && !must.ok()) {
            throw new AssertionError(what + ": the reference form decoded " + reference.output.length
                    + " bytes, this form failed: " + must.error, must.error);
        }
        sameWhenBothOk(what, reference, must);
    }
}
