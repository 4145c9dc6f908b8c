#include "CHardening.h"
#include <sys/prctl.h>
#include <sys/resource.h>

int bw_forbid_core_dumps(void) {
    struct rlimit none = { 0, 0 };
    int limit = setrlimit(RLIMIT_CORE, &none);
    int dumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limit == 0 && dumpable == 0 ? 0 : -1;
}

int bw_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}
