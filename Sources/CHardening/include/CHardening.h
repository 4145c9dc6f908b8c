#ifndef CHARDENING_H
#define CHARDENING_H

#include "CSpawning.h"

/* Process hardening that Swift cannot call directly (prctl is variadic). */

/* No core dump, and not dumpable (no ptrace by other processes of the same
   user, /proc/PID/mem unreadable to them): a core of an unlocked vault
   would hold the master password and the vault key. Returns 0 when both
   took effect. */
int bw_forbid_core_dumps(void);

/* 1 when the process may dump core or be traced by its user, 0 when not. */
int bw_is_dumpable(void);

/* The user id of a Unix socket's peer, from the kernel (SO_PEERCRED,
   which needs _GNU_SOURCE's struct ucred). Returns 0 when it was had. */
int bw_peer_uid(int descriptor, unsigned int *uid);
/* The process id of a Unix socket's peer, as it connected (SO_PEERCRED). */
int bw_peer_pid(int descriptor, int *pid);

#endif
