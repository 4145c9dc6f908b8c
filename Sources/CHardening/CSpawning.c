#define _GNU_SOURCE
#include "CSpawning.h"
#include <fcntl.h>
#include <stdlib.h>
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

int bw_open_pseudo_terminal(char *name, size_t size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, name, size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}
