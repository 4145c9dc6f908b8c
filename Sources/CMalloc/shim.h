/* glibc's malloc.h (malloc_trim), which Swift's Glibc module leaves out. */
#include <malloc.h>
