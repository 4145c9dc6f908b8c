#define _GNU_SOURCE
#include "CSpawning.h"
#include <fcntl.h>
#include <unistd.h>

int bw_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int bw_spawn_close_from(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}

short bw_spawn_setsid_flag(void) {
    return POSIX_SPAWN_SETSID;
}
