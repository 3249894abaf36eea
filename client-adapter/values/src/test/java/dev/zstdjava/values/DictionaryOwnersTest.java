package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DictionaryOwners}: an id has one holder; an id two sources load with other bytes, or one disputed by a holder
 * elsewhere, is held by neither; the same bytes in two sources are one dictionary.
 */
class DictionaryOwnersTest {
    private final DictionaryOwners<String> owners = new DictionaryOwners<>((s, id) -> "source " + s);

    @Test
    void anIdIsHeldByTheFirstSourceThatLoadsItAndTheSameBytesAreOneDictionary() {
        assertNull(owners.owner(40_000));
        assertNull(owners.loaded(40_000, "a", 1));
        assertEquals("a", owners.owner(40_000));
        assertNull(owners.loaded(40_000, "a", 1), "its own id again");
        assertNull(owners.loaded(40_000, "b", 1), "the same bytes are the same dictionary");
        assertEquals("a", owners.owner(40_000));
        assertFalse(owners.ambiguous(40_000));
        assertNull(owners.conflict(40_000));
    }

    @Test
    void anIdTwoSourcesLoadWithOtherBytesIsHeldByNeitherAndReservedByNone() {
        for (long id : new long[]{7, 3, 9, 5}) { // out of order: the index stays sorted
            assertNull(owners.loaded(id, "s" + id, id));
        }
        assertEquals("s5", owners.loaded(5, "b", 55), "the earlier holder");
        assertNull(owners.owner(5));
        assertTrue(owners.ambiguous(5));
        assertEquals("source s5 and source b", owners.conflict(5));
        assertNull(owners.loaded(5, "c", 56), "reported once");
        assertEquals("source s5 and source b", owners.conflict(5));
        for (long id : new long[]{3, 7, 9}) {
            assertEquals("s" + id, owners.owner(id), "the others keep their holders");
            assertFalse(owners.ambiguous(id));
        }
    }

    @Test
    void anIdDisputedByAHolderElsewhereIsHeldByNeither() {
        assertNull(owners.loaded(11, "a", 1));
        assertTrue(owners.disputed(11, "a", 1, "lineage x (elsewhere)"));
        assertNull(owners.owner(11));
        assertEquals("source a and lineage x (elsewhere)", owners.conflict(11));
        assertFalse(owners.disputed(11, "a", 1, "lineage y"), "reported once");
        assertNull(owners.loaded(11, "a", 1), "loading it again changes nothing");
        assertTrue(owners.ambiguous(11));
        assertTrue(owners.disputed(12, "b", 2, "lineage z"), "an id not yet recorded");
        assertEquals("source b and lineage z", owners.conflict(12));
    }

    @Test
    void aForgottenSourceHoldsNothingAndItsIdsAreRecordedAnewButAnAmbiguousIdStays() {
        for (long id : new long[]{3, 1, 2}) {
            assertNull(owners.loaded(id, "a", 10 + id));
        }
        assertNull(owners.loaded(4, "b", 14));
        assertEquals("a", owners.loaded(2, "b", 99), "made ambiguous");
        assertArrayEquals(new long[]{1, 3}, owners.idsOf("a"), "its ids, not the ambiguous one");
        assertEquals(13, owners.hash(3));
        owners.forget("a");
        assertEquals(0, owners.idsOf("a").length);
        assertNull(owners.owner(1));
        assertNull(owners.owner(3));
        assertEquals(0, owners.hash(3));
        assertEquals("b", owners.owner(4), "the others keep their ids");
        assertTrue(owners.ambiguous(2), "still read with neither");
        assertEquals(2, owners.size(), "ids 2 (ambiguous) and 4");
        assertNull(owners.loaded(3, "c", 13), "recorded anew");
        assertEquals("c", owners.owner(3));
        owners.forget("nobody");
        assertEquals(3, owners.size());
    }

    @Test
    void theContentHashTellsBytesApart() {
        assertEquals(DictionaryOwners.contentHash(new byte[]{1, 2, 3}), DictionaryOwners.contentHash(new byte[]{1, 2, 3}));
        assertFalse(DictionaryOwners.contentHash(new byte[]{1, 2, 3}) == DictionaryOwners.contentHash(new byte[]{1, 2, 4}));
    }
}
