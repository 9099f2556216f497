/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the programs of the boot-test guest (boot-tests/guest/) share,
 * from guest.c, which boot-tests/initramfs.sh links into each of them: the
 * hogs that allocate through a file, the vgem card, and small helpers.
 */
#ifndef OOMTEST_GUEST_H
#define OOMTEST_GUEST_H

#include <stddef.h>
#include <stdnoreturn.h>

#define MIB (1024L * 1024)
/* What a hog allocates at a time. */
#define CHUNK (4 * MIB)

/* sysconf(_SC_PAGESIZE), set before main(). */
extern long page_size;

/* Print "error: WHAT: strerror(errno)" and exit 2 (a setup error). */
noreturn void die(const char *what);
/* Write @s to the file at @path, or die. */
void write_file(const char *path, const char *s);
void set_oom_score_adj(const char *adj);
/* The value of /proc/meminfo's line @key ("MemTotal"), in bytes. */
long meminfo(const char *key);
/* Touch every page of [@p, @p + @len). */
void touch(char *p, size_t len);

/*
 * Open the vgem DRM card read-write, close-on-exec, and when @path is not
 * NULL put its path there (@size bytes); -1 with errno ENODEV if there is
 * none.
 */
int open_vgem(char *path, size_t size);
/*
 * One vgem dumb buffer of @size bytes on DRM file @fd, mapped through its
 * PRIME DMA-buf, touched and unmapped: its handle, or 0 when it could not
 * be created for want of memory.  Mapped through the DRM file instead, vgem
 * would allocate the pages inside mmap(), while two references to the DRM
 * file are in flight (mmap's own fget() and the mapping being made); those
 * count for no process, and an OOM kill then would see the hog with a
 * third of its buffers: the series' known limit for references in flight.
 * Through the DMA-buf, those references are the DMA-buf's, and the DRM
 * file shows what a client holds at rest.
 */
unsigned int gem_buffer(int fd, long size);

/*
 * The hogs: allocate without end through a file, none of it in the RSS.
 * hog_memfd() write()s to a memfd; when hog_memfd_opened is set, it is
 * called with the memfd first.  hog_dmabuf() keeps DMA-bufs of the system
 * heap, hog_gem() vgem dumb buffers (gem_buffer()).  Out of memory, they
 * try again: the OOM killer is to decide.
 */
extern void (*hog_memfd_opened)(int fd);
noreturn void hog_memfd(void);
noreturn void hog_dmabuf(void);
noreturn void hog_gem(void);

#endif
