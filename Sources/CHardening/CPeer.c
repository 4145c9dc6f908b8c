#define _GNU_SOURCE
#include "CHardening.h"
#include <sys/socket.h>

int bw_peer_uid(int descriptor, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

int bw_peer_pid(int descriptor, int *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    return 0;
}
