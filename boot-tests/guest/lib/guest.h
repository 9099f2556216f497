/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the programs of the boot-test guest (boot-tests/guest/) share,
 * from guest.c, which boot-tests/initramfs.sh links into each of them (with
 * scenario.c, the OOM scenarios): the vgem card, SCM_RIGHTS, the kernel log's
 * OOM kills, and small helpers.
 */
#ifndef OOMTEST_GUEST_H
#define OOMTEST_GUEST_H

#include <stddef.h>
#include <sys/types.h>
#include <stdnoreturn.h>

#define MIB (1024L * 1024)
/* What a hog allocates at a time. */
#define CHUNK (4 * MIB)

/* sysconf(_SC_PAGESIZE), set before main(). */
extern long page_size;

/* Print "error: WHAT: strerror(errno)" and exit 2 (a setup error). */
noreturn void die(const char *what);
/*
 * What the test needs is not there (a device, a file): print "SKIP: @why"
 * and exit with kselftest's KSFT_SKIP, which the guest's init reports as a
 * skip with that reason, not as a failure.
 */
noreturn void skip(const char *why);
/* Write @s to the file at @path, or die. */
void write_file(const char *path, const char *s);
void set_oom_score_adj(const char *adj);
/* The value of /proc/meminfo's line @key ("MemTotal"), in bytes. */
long meminfo(const char *key);
/* Touch every page of [@p, @p + @len). */
void touch(char *p, size_t len);

/*
 * Open the DRM card of @driver ("vgem", "virtio_gpu", "bochs-drm")
 * read-write, close-on-exec, and when @path is not NULL put its path there
 * (@size bytes); -1 with errno ENODEV if there is none.
 */
int open_card(const char *driver, char *path, size_t size);
/*
 * A dumb buffer of @pages pages (a row a page, 32 bpp) on DRM file @fd: its
 * handle, or 0 when it could not be created for want of memory.
 */
unsigned int gem_create(int fd, long pages);
/* GEM_CLOSE of @handle: the ioctl's return value. */
int gem_close(int fd, unsigned int handle);
/*
 * One vgem dumb buffer of @size bytes on DRM file @fd, mapped through its
 * PRIME DMA-buf, touched and unmapped: its handle, or 0 when it could not
 * be created for want of memory.  The pages stay with the buffer, out of
 * the caller's RSS.
 */
unsigned int gem_buffer(int fd, long size);

/*
 * Write to @fd a MiB after a MiB without end, @pause_us apart: what a memfd
 * hog does.  Out of memory, it keeps trying; any other error dies.
 */
noreturn void write_forever(int fd, unsigned int pause_us);

/*
 * SCM_RIGHTS: send @n (at most MAX_SEND_FDS) fds with sendmsg() @flags
 * (MSG_DONTWAIT): sendmsg()'s result, -1 with errno EINVAL for a bad @n.
 */
#define MAX_SEND_FDS 4
ssize_t sendmsg_fds(int sock, const int *fds, int n, int flags);
/* The same, blocking, or die. */
void send_fds(int sock, const int *fds, int n);
void send_fd(int sock, int fd);
/*
 * Receive at most @max fds (close-on-exec) into @fds: how many, or -1 at
 * the end of the stream or when no fd came.
 */
int recv_fds(int sock, int *fds, int max);
int recv_fd(int sock);

/* /dev/kmsg, opened at its end: what the kernel logs from now on. */
int kmsg_open(void);
/* The pids the OOM killer killed since @kmsg was opened, in order. */
int oom_kills(int kmsg, pid_t *pids, int max);
/*
 * The same, and in @holds how many times the OOM killer said it held back
 * for a victim's files ("Out of memory: holding back").
 */
int oom_log(int kmsg, pid_t *pids, int max, int *holds);

/* The number a /proc file holds (oom_score), or -1. */
long proc_long(const char *path);
long oom_score(pid_t pid);

/*
 * Who must die first in @scenario on a run of kind @kind, from @table
 * (/etc/scenarios): "scenario series series-off base" lines, the first of
 * them its header.  Exits 2 when the table has no such row or column.
 */
const char *expected_victim(const char *table, const char *scenario, const char *kind);

#endif
