package dev.zstdjava.values;

import java.util.List;

/**
 * Where a store keeps a dictionary's entry, in words bounded in length, for the messages of missing dictionaries and
 * id claims: a key prefix (so a key) can be of any length, and a message names at most a few of them.
 *
 * <p><b>Thread safety:</b> stateless. Not used on a hot path.
 */
final class Locations {
    /** The most characters of one location a message quotes; a longer one is cut, saying how long it was. */
    static final int MAX_LOCATION_CHARS = 400;
    /** The most locations a message lists; the others are counted. */
    static final int MAX_LOCATIONS = 3;

    private Locations() {
    }

    /**
     * @return where {@code store} keeps dictionary {@code id} ({@link DictionaryStore#entryLocation}), at most
     *         {@value #MAX_LOCATION_CHARS} characters and a note; when the store fails to say, the store and the id
     */
    static String of(DictionaryStore store, long id) {
        String where;
        try {
            where = store.entryLocation(id);
        } catch (RuntimeException e) {
            where = null;
        }
        return clip(where != null ? where : store + " (dictionary " + id + ")");
    }

    /** @return {@code s}, cut after {@value #MAX_LOCATION_CHARS} characters (not within a surrogate pair) */
    static String clip(String s) {
        if (s.length() <= MAX_LOCATION_CHARS) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(MAX_LOCATION_CHARS - 1)) ? MAX_LOCATION_CHARS - 1
                : MAX_LOCATION_CHARS;
        return s.substring(0, end) + "... (cut, " + s.length() + " characters)";
    }

    /**
     * @return the first {@value #MAX_LOCATIONS} of {@code locations}, comma-separated, then how many others there are
     */
    static String list(List<String> locations) {
        int shown = Math.min(locations.size(), MAX_LOCATIONS);
        String head = String.join(", ", locations.subList(0, shown));
        int more = locations.size() - shown;
        return more == 0 ? head : head + " and " + more + " other" + (more == 1 ? "" : "s");
    }
}
