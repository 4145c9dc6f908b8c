// The built-in list of common passwords (see make-common-passwords.py):
// the first 64 bits of each password's SHA-1, big-endian, sorted.
// Reached through functions: Swift would import the array as a tuple.
#ifndef BULWARK_COMMON_PASSWORDS_H
#define BULWARK_COMMON_PASSWORDS_H
#include <stdint.h>

const uint64_t *bulwark_common_password_prefixes(void);
long bulwark_common_password_count(void);
/// The passwords each source held when the table was made: 0 Openwall,
/// 1 zxcvbn, 2 Django, 3 the distinct passwords kept (capitalised forms included).
long bulwark_common_password_list_sizes(int which);

#endif
