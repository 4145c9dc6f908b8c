#!/usr/bin/env python3
"""Regenerates WordFloors.c: what libzxcvbn's dictionary can take off a
password, for bulwark's strength floor (see StrengthFloor.swift).

    python3 make-word-floors.py WORD_LIST...

The word lists are every words-*.txt zxcvbn-c has had (MIT): libzxcvbn as
Debian builds it (2.5+dfsg) knows words of the first lists (words-10k-pass,
words-english) as well as of today's, so all are read; a word the library
lacks only lowers a floor. From a clone of github.com/tsyrogit/zxcvbn-c:

    for c in $(git rev-list --all -- 'words-*.txt'); do
      for f in $(git ls-tree --name-only $c | grep '^words-'); do git show $c:$f > /tmp/w/$(git rev-parse $c:$f).txt; done
    done

libzxcvbn must be installed: each word is measured by the library itself.

libzxcvbn credits a dictionary word with ln(rank) plus extras for capitals
and "leet" stand-ins, so a word can never cost less than the library's own
estimate of the word alone, lower-cased. That estimate is each word's floor.
Words are kept by their "stand-in class" spelling: every letter lower-cased,
and every character joined with the letters it can stand in for (0 with o,
1 with i and l, ...), so a password's run matches a class spelling whenever
the library could match it to any word. Several words with one spelling
keep the lowest floor, in eighths of a bit, rounded down. Three tables
(see WordFloors.h): spellings of up to three classes, exactly, with whether
a longer word begins so; a Bloom filter of the longer spellings that are
words or begin one, so that a walk along a password stops early; and the
longer words' floors, open-addressed (Robin Hood linear probing) in 2^18
32-bit slots of 16 bits of the spelling's hash, the floor, and how far the
slot is from the hash's home. A false hit only lowers a floor, never
raises it.
"""
import ctypes
import math
import os
import sys

TABLE_BITS = 18   # spellings of more than SHORT classes that are words
SHORT = 3
SHORT_BITS = 15   # spellings of up to SHORT classes that are words or begin one
PREFIX_BITS = 21  # the filter of longer ones that are words or begin one
# libzxcvbn's own leet table (zxcvbn.c, L33TCnv): each character, then the letters it stands for.
LEET = ["!i", "$s", "%x", "(c", "+t", "0o", "1il", "2z", "3e", "4a", "5s", "6g", "7lt", "8b", "9g", "<c", "@a", "[c", "{c", "|il"]
PROBES = 24


def classes():
    parent = list(range(128))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for group in LEET:
        for c in group[1:]:
            a, b = find(ord(group[0])), find(ord(c))
            parent[max(a, b)] = min(a, b)
    table = []
    for byte in range(128):
        lower = byte | 0x20 if 0x41 <= byte <= 0x5A else byte
        table.append(find(lower))
    return table


def mix(h):
    # Must match WordFloorTable.swift: FNV-1a 64 state, then a finaliser.
    h ^= h >> 32
    h = (h * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    h ^= h >> 29
    return h


def spelling_hash(spelling):
    h = 0xCBF29CE484222325
    for byte in spelling:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return mix(h)


def c_string(word):
    return '"' + "".join("\\%03o" % b if b in b'"\\?' or b < 32 else chr(b) for b in word) + '"'


def write_array(f, kind, name, size, values):
    f.write("static const %s %s[%s] = {\n" % (kind, name, size))
    for start in range(0, len(values), 16):
        f.write(",".join("0x%x" % v if v else "0" for v in values[start:start + 16]) + ",\n")
    f.write("};\n\n")


def short_key(spelling):
    # Up to three 7-bit classes and the length: exact, no hash needed.
    key = len(spelling)
    for index, c in enumerate(spelling):
        key |= c << (2 + 7 * index)
    return key


def short_table(floors):
    """Spellings of one to three classes that are words or begin one: the
    key, whether a longer word begins so (bit 23), and the floor (255 when
    no word is spelt so). Linear probing by a multiplicative hash of the key."""
    entries = {}
    for spelling, eighths in floors.items():
        for length in range(1, min(len(spelling), SHORT) + 1):
            key = short_key(spelling[:length])
            floor, extends = entries.get(key, (255, 0))
            if length == len(spelling):
                floor = min(floor, eighths)
            else:
                extends = 1
            entries[key] = (floor, extends)
    size = 1 << SHORT_BITS
    slots = [0] * size
    for key, (floor, extends) in sorted(entries.items()):
        at = ((key * 0x9E3779B1) & 0xFFFFFFFF) >> (32 - SHORT_BITS)
        while slots[at]:
            at = (at + 1) & (size - 1)
        slots[at] = key | extends << 23 | floor << 24
    if len(entries) * 2 > size:
        sys.exit("the short table is more than half full")
    return slots


def prefix_filter(floors):
    """A Bloom filter (two bits each) of every spelling longer than three
    classes that is a word or begins one: a walk along a password stops where
    the filter says no."""
    bits = [0] * ((1 << PREFIX_BITS) // 64)
    for spelling in floors:
        h = 0xCBF29CE484222325
        for index, c in enumerate(spelling):
            h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
            if index + 1 > SHORT:
                mixed = mix(h)
                for bit in (mixed & ((1 << PREFIX_BITS) - 1), (mixed >> PREFIX_BITS) & ((1 << PREFIX_BITS) - 1)):
                    bits[bit >> 6] |= 1 << (bit & 63)
    return bits


def long_table(floors):
    size = 1 << TABLE_BITS
    slots = [0] * size
    longest = 0
    for spelling in sorted(floors):
        h = spelling_hash(spelling)
        # A fingerprint is never 0, so no slot in use reads as empty.
        entry_fp, entry_floor, home, distance = (h >> 48) or 1, floors[spelling], h & (size - 1), 0
        while True:
            at = (home + distance) & (size - 1)
            slot = slots[at]
            if slot == 0:
                slots[at] = entry_fp << 16 | entry_floor << 8 | distance
                break
            slot_distance = slot & 0xFF
            if slot_distance == distance and slot >> 16 == entry_fp:
                # Same 16 bits at the same place: one slot answers for both, at the lower floor.
                slots[at] = slot & 0xFFFF00FF | min(entry_floor, (slot >> 8) & 0xFF) << 8
                break
            if slot_distance < distance:
                # Robin Hood: the entry farther from home takes the slot; the other moves on.
                slots[at] = entry_fp << 16 | entry_floor << 8 | distance
                entry_fp, entry_floor, distance = slot >> 16, (slot >> 8) & 0xFF, slot_distance
                home = (at - slot_distance) & (size - 1)
            distance += 1
            if distance > 254:
                sys.exit("table too full")
            longest = max(longest, distance)
    return slots, longest


def main():
    lib = ctypes.CDLL("libzxcvbn.so.0")
    lib.ZxcvbnMatch.restype = ctypes.c_double
    lib.ZxcvbnMatch.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
    words = set()
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            for line in f:
                # As libzxcvbn's dictionary generator reads a line: up to the first space or tab, lower-cased, ASCII only.
                word = line.rstrip(b"\r\n").split(b" ")[0].split(b"\t")[0]
                if word and all(b < 128 for b in word):
                    words.add(word.lower())
    cls = classes()
    floors = {}
    measured = {}
    for word in sorted(words):
        bits = lib.ZxcvbnMatch(word, None, None)
        measured[word] = bits
        spelling = bytes(cls[b] for b in word)
        eighths = min(254, math.floor(bits * 8))  # 255 is "no word" in the short table
        if floors.get(spelling, 256) > eighths:
            floors[spelling] = eighths
    short_slots = short_table(floors)
    bloom = prefix_filter(floors)
    long_floors = {spelling: eighths for spelling, eighths in floors.items() if len(spelling) > SHORT}
    slots, longest = long_table(long_floors)
    step = len(measured) // PROBES
    probes = sorted(measured)[::step][:PROBES]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "WordFloors.c")
    with open(out, "w") as f:
        f.write("// Generated by make-word-floors.py from zxcvbn-c's word lists (MIT)\n")
        f.write("// and libzxcvbn's estimate of each word. Do not edit.\n")
        f.write('#include "WordFloors.h"\n\n')
        f.write("static const uint8_t classes[128] = {%s};\n\n" % ",".join(str(c) for c in cls))
        f.write("static const char *const probes[BULWARK_WORD_FLOOR_PROBES] = {%s};\n"
                % ", ".join(c_string(p) for p in probes))
        f.write("static const double probe_bits[BULWARK_WORD_FLOOR_PROBES] = {%s};\n\n"
                % ", ".join(repr(measured[p]) for p in probes))
        write_array(f, "uint32_t", "short_slots", "1u << BULWARK_WORD_FLOOR_SHORT_BITS", short_slots)
        write_array(f, "uint64_t", "prefix_bits", "(1u << BULWARK_WORD_FLOOR_PREFIX_BITS) / 64", bloom)
        write_array(f, "uint32_t", "slots", "1u << BULWARK_WORD_FLOOR_TABLE_BITS", slots)
        f.write("const uint8_t *bulwark_word_floor_classes(void) { return classes; }\n")
        f.write("const uint32_t *bulwark_word_floor_short_slots(void) { return short_slots; }\n")
        f.write("const uint64_t *bulwark_word_floor_prefix_bits(void) { return prefix_bits; }\n")
        f.write("const uint32_t *bulwark_word_floor_slots(void) { return slots; }\n")
        f.write("const char *const *bulwark_word_floor_probes(void) { return probes; }\n")
        f.write("const double *bulwark_word_floor_probe_bits(void) { return probe_bits; }\n")
    print("%d words, %d spellings (%d of more than %d), %d slots (%.0f%% full), longest probe %d; wrote %s"
          % (len(words), len(floors), len(long_floors), SHORT, len(slots), 100.0 * len(long_floors) / len(slots), longest, out))
    longest_spelling = max(len(s) for s in floors)
    if longest_spelling != 23:
        sys.exit("the longest spelling is %d: change BULWARK_WORD_FLOOR_LONGEST_SPELLING" % longest_spelling)
    print("longest spelling %d" % longest_spelling)


main()
