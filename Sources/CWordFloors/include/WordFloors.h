// What libzxcvbn's dictionary can take off a password: the floor of every
// word's cost, by its stand-in class spelling (see make-word-floors.py).
// Reached through functions: Swift would import the arrays as tuples.
#ifndef BULWARK_WORD_FLOORS_H
#define BULWARK_WORD_FLOORS_H
#include <stdint.h>

#define BULWARK_WORD_FLOOR_TABLE_BITS 18
#define BULWARK_WORD_FLOOR_SHORT_BITS 15
#define BULWARK_WORD_FLOOR_PREFIX_BITS 21
#define BULWARK_WORD_FLOOR_PROBES 24
/// No spelling in the table is longer.
#define BULWARK_WORD_FLOOR_LONGEST_SPELLING 23

/// Each ASCII byte's class: letters lower-cased, joined with what stands in for them.
const uint8_t *bulwark_word_floor_classes(void);
/// Spellings of one to three classes that are words or begin one, exactly:
/// the key (length, then 7 bits a class), bit 23 when a longer word begins
/// so, and the floor in eighths of a bit above (255: no word); 0 is empty.
const uint32_t *bulwark_word_floor_short_slots(void);
/// A Bloom filter (two bits each) of the longer spellings that are words or begin one.
const uint64_t *bulwark_word_floor_prefix_bits(void);
/// The longer spellings that are words: 16 bits of the hash, the floor in
/// eighths of a bit, the distance from home; 0 is empty.
const uint32_t *bulwark_word_floor_slots(void);
/// Words and libzxcvbn's estimate of each when the table was made: a
/// different library makes the table unusable (StrengthFloor then stands aside).
const char *const *bulwark_word_floor_probes(void);
const double *bulwark_word_floor_probe_bits(void);

#endif
