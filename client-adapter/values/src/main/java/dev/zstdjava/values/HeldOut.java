package dev.zstdjava.values;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;

/**
 * How a dictionary is checked on values it was not trained on: the items (samples, or keys with their values) are
 * split into a held-out part and a training part with every copy of a content on one side. A value written many
 * times is sampled many times; a check on copies of training samples would credit the dictionary with values it
 * merely holds. The one split of the library's managed dictionaries (a held-out fifth of their samples) and of
 * {@code zstd-values advise} (a held-out half of the keys it read), so that both adopt by the same kind of check.
 *
 * <p><b>Thread safety:</b> stateless. <b>Allocation:</b> a map of the distinct contents and the two lists.
 */
public final class HeldOut {
    private HeldOut() {
    }

    /**
     * The two parts of a split.
     *
     * @param heldOut  the items the dictionary is checked on
     * @param train    the items it is trained on; empty when every item has the same content
     * @param distinct how many distinct contents the items hold
     * @param <T>      the items' type
     */
    public record Split<T>(List<T> heldOut, List<T> train, int distinct) {
        /** Copies the lists. */
        public Split {
            heldOut = List.copyOf(heldOut);
            train = List.copyOf(train);
        }
    }

    /**
     * Splits {@code items}: their distinct contents are taken in an order drawn from {@code random}, each with all
     * its items, into the held-out part until it holds at least {@code heldOut} items (more when the last content
     * taken has several), and the rest into the training part.
     *
     * @param content the content of an item, compared with {@code equals} (for bytes: {@code ByteBuffer::wrap})
     * @param heldOut how many items to hold out at least: 1 to {@code items.size()}
     * @throws IllegalArgumentException when {@code heldOut} is out of that range
     * @throws NullPointerException     when an argument or an item's content is null
     */
    public static <T> Split<T> split(List<T> items, Function<? super T, ?> content, int heldOut, Random random) {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(random, "random");
        if (heldOut < 1 || heldOut > items.size()) {
            throw new IllegalArgumentException("hold out " + heldOut + " of " + items.size() + " items: 1 to "
                    + items.size());
        }
        Map<Object, List<T>> byContent = new LinkedHashMap<>();
        for (T item : items) {
            byContent.computeIfAbsent(Objects.requireNonNull(content.apply(item), "content"),
                    k -> new ArrayList<>(1)).add(item);
        }
        List<List<T>> contents = new ArrayList<>(byContent.values());
        Collections.shuffle(contents, random);
        List<T> held = new ArrayList<>(heldOut);
        List<T> train = new ArrayList<>(Math.max(0, items.size() - heldOut));
        for (List<T> copies : contents) {
            (held.size() < heldOut ? held : train).addAll(copies);
        }
        return new Split<>(held, train, contents.size());
    }
}
