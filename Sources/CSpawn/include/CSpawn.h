// The GNU extensions of posix_spawn and pipe that SystemIO's SpawnedProcess needs. Swift's Glibc
// module is built without _GNU_SOURCE, so it does not see them; spawn.c does.
#ifndef HYBRID_CSPAWN_H
#define HYBRID_CSPAWN_H

#include <spawn.h>

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `from` up.
int cspawn_add_close_from(posix_spawn_file_actions_t *actions, int from);
/// posix_spawn_file_actions_addchdir_np: the child changes to `path` before it runs.
int cspawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
/// pipe2(fds, O_CLOEXEC): both ends closed on exec, from the moment they exist.
int cspawn_pipe_cloexec(int fds[2]);

#endif
