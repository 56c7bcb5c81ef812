// Linux interfaces that the Glibc module does not expose to Swift.
#include <sys/types.h>
#include <sys/xattr.h>
#include <iconv.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/stat.h>
#include <malloc.h>

/// Birth time of a path through statx(2), without following a final link.
/// Returns 0 and fills the time when the file system records it, -1 otherwise.
static inline int limelight_birth_time(const char *path, long long *seconds, unsigned *nanoseconds) {
  struct statx sx;
  if (syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) != 0) return -1;
  if (!(sx.stx_mask & STATX_BTIME)) return -1;
  *seconds = sx.stx_btime.tv_sec;
  *nanoseconds = sx.stx_btime.tv_nsec;
  return 0;
}
