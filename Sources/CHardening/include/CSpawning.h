#ifndef CSPAWNING_H
#define CSPAWNING_H

#include <spawn.h>
#include <stddef.h>

/* What a child process inherits, which Swift's Glibc module cannot reach
   (glibc declares these for _GNU_SOURCE only). A descriptor that leaks
   into a child that outlives the call (a clipboard tool serving its
   selection, a tmux server) keeps a lock held or a pipe open. */

/* pipe2(fds, O_CLOEXEC): both ends closed at exec, atomically, so a child
   spawned by another thread in between cannot take them. */
int bw_pipe_cloexec(int fds[2]);

/* The child closes every descriptor from `low` up before its exec. */
int bw_spawn_close_from(posix_spawn_file_actions_t *actions, int low);

/* POSIX_SPAWN_SETSID: the child starts a session of its own, so it
   outlives the terminal's process group (a clipboard keeper after `get`). */
short bw_spawn_setsid_flag(void);

/* A new pseudo-terminal: its controlling side's descriptor (closed at
   exec), the other side's path written into `name`; -1 on failure.
   (The bench runs the app on one, as a person's terminal does.) */
int bw_open_pseudo_terminal(char *name, size_t size);

#endif
