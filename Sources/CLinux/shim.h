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

#include <sys/socket.h>
#include <string.h>

/// Sends `length` bytes with up to 4 file descriptors attached (SCM_RIGHTS).
/// Returns what sendmsg(2) returns.
static inline long limelight_send_with_fds(int socket, const void *bytes, size_t length,
                                           const int *fds, int count) {
  if (count < 0 || count > 4) return -1;
  struct iovec iov = {(void *)bytes, length};
  union {
    char buffer[CMSG_SPACE(4 * sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {0};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  if (count > 0) {
    message.msg_control = control.buffer;
    message.msg_controllen = CMSG_SPACE(count * sizeof(int));
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(header), fds, count * sizeof(int));
  }
  return sendmsg(socket, &message, MSG_NOSIGNAL);
}

/// Receives up to `length` bytes and up to 4 attached file descriptors (made
/// close-on-exec); `*count` is how many arrived. Returns what recvmsg(2) returns.
static inline long limelight_receive_with_fds(int socket, void *bytes, size_t length, int *fds,
                                              int *count) {
  struct iovec iov = {bytes, length};
  union {
    char buffer[CMSG_SPACE(4 * sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr message = {0};
  message.msg_iov = &iov;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  *count = 0;
  long received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
  if (received < 0) return received;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    for (int i = 0; i < n; i++) {
      int fd;
      memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
      if (*count < 4) fds[(*count)++] = fd; else close(fd);
    }
  }
  return received;
}

/// The user id of the process at the other end of a Unix socket, or -1.
static inline long limelight_peer_uid(int socket) {
  // struct ucred's layout, which <sys/socket.h> shows only under _GNU_SOURCE.
  struct { pid_t pid; uid_t uid; gid_t gid; } credentials;
  socklen_t size = sizeof credentials;
  if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
  return (long)credentials.uid;
}

#include <sys/resource.h>
#include <errno.h>

/// Sets a resource limit of another process (prlimit(2)); 0 on success.
static inline int limelight_set_limit(pid_t pid, int resource, unsigned long long value) {
  struct rlimit64 { unsigned long long cur, max; } limit = {value, value};
  return (int)syscall(SYS_prlimit64, pid, resource, &limit, NULL);
}

/// Lowers the calling thread's scheduling priority (its nice value) to at
/// least `nice`; other threads of the process keep theirs.
static inline void limelight_lower_thread_priority(int nice) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  errno = 0;
  int current = getpriority(PRIO_PROCESS, (id_t)tid);
  if (errno == 0 && current >= nice) return;
  setpriority(PRIO_PROCESS, (id_t)tid, nice);
}

/// Puts the calling thread in the idle I/O class: its reads wait while any
/// other process reads or writes the disk (ioprio_set has no glibc wrapper).
static inline void limelight_idle_io_priority(void) {
  pid_t tid = (pid_t)syscall(SYS_gettid);
  syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, (int)tid, 3 << 13 /* IOPRIO_CLASS_IDLE */);
}

/// The path of `name` in the folder of the running executable (where the
/// package's programs are installed together), into `out`; 0 on success.
static inline int limelight_path_beside_executable(const char *name, char *out, size_t size) {
  ssize_t n = readlink("/proc/self/exe", out, size);
  if (n <= 0 || (size_t)n >= size) return -1;
  while (n > 0 && out[n - 1] != '/') n--;
  size_t length = strlen(name);
  if ((size_t)n + length + 1 > size) return -1;
  memcpy(out + n, name, length + 1);
  return 0;
}

#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>

/// Hands back the pages of the program's code and data that this process has
/// touched and not written: clean file pages, read again from the page cache
/// when needed. Does nothing on kernels without MADV_PAGEOUT (Linux 5.4).
static inline void limelight_page_out_program(void) {
  const Elf64_Phdr *headers = (const Elf64_Phdr *)getauxval(AT_PHDR);
  unsigned long count = getauxval(AT_PHNUM);
  if (headers == NULL) return;
  uintptr_t bias = 0;
  for (unsigned long i = 0; i < count; i++) {
    if (headers[i].p_type == PT_PHDR) bias = (uintptr_t)headers - headers[i].p_vaddr;
  }
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (unsigned long i = 0; i < count; i++) {
    const Elf64_Phdr *segment = &headers[i];
    if (segment->p_type != PT_LOAD) continue;
    // A writable segment's file part is mostly read-only data the linker
    // placed there (Unicode tables); what the process wrote is anonymous and
    // stays unless there is swap. Its zero-filled tail (.bss) is left alone.
    uintptr_t start = (bias + segment->p_vaddr + page - 1) & ~(page - 1);
    uintptr_t end = (bias + segment->p_vaddr + segment->p_filesz) & ~(page - 1);
    if (end <= start) continue;
    madvise((void *)start, end - start, 21 /* MADV_PAGEOUT */);
  }
}

/// `count` bytes of `text` into `out`, their ASCII letters in lower case:
/// a loop the compiler turns into vector instructions (a phrase check
/// lowers megabytes a query).
static inline void limelight_lower_ascii(unsigned char *out, const unsigned char *text,
                                         size_t count) {
  for (size_t i = 0; i < count; i++) {
    unsigned char byte = text[i];
    out[i] = (unsigned char)(byte - 'A') < 26 ? (unsigned char)(byte | 0x20) : byte;
  }
}

/// Where `needle` first occurs in `haystack`, or null: memmem(3), which
/// the Glibc module leaves out (a GNU extension). It looks for the needle's
/// last byte: in UTF-8 the first is shared by thousands of characters.
static inline const void *limelight_memmem(const void *haystack, size_t haystack_length,
                                           const void *needle, size_t needle_length) {
  if (needle_length == 0) return haystack;
  if (haystack_length < needle_length) return 0;
  const unsigned char *h = (const unsigned char *)haystack;
  const unsigned char *n = (const unsigned char *)needle;
  const unsigned char last = n[needle_length - 1];
  const unsigned char *from = h + needle_length - 1;
  const unsigned char *end = h + haystack_length;
  while (from < end) {
    const unsigned char *hit = (const unsigned char *)memchr(from, last, (size_t)(end - from));
    if (!hit) return 0;
    const unsigned char *start = hit - (needle_length - 1);
    if (memcmp(start, n, needle_length) == 0) return start;
    from = hit + 1;
  }
  return 0;
}

#include <sys/ioctl.h>

/// The rows and columns of the terminal on `fd`; 0 on success (ioctl is
/// variadic, which Swift cannot call).
static inline int limelight_terminal_size(int fd, int *rows, int *columns) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
  *rows = size.ws_row;
  *columns = size.ws_col;
  return 0;
}
