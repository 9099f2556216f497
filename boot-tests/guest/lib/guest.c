// SPDX-License-Identifier: GPL-2.0
/*
 * What the boot-test guest's programs share; see guest.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include "guest.h"

long page_size;
void (*hog_memfd_opened)(int fd);

static void __attribute__((constructor)) guest_init(void)
{
	page_size = sysconf(_SC_PAGESIZE);
}

void die(const char *what)
{
	printf("error: %s: %s\n", what, strerror(errno));
	exit(2);
}

void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) < 0)
		die(path);
	close(fd);
}

void set_oom_score_adj(const char *adj)
{
	write_file("/proc/self/oom_score_adj", adj);
}

long meminfo(const char *key)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			kb = atol(line + strlen(key) + 1);
	fclose(f);
	return kb * 1024;
}

void touch(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += page_size)
		p[i] = 1;
}

int open_vgem(char *path, size_t size)
{
	char name[16], card[32];
	int i, fd;

	for (i = 0; i < 16; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(card, sizeof(card), "/dev/dri/card%d", i);
		fd = open(card, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem")) {
			if (path)
				snprintf(path, size, "%s", card);
			return fd;
		}
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

unsigned int gem_buffer(int fd, long size)
{
	struct drm_mode_create_dumb create = {
		.width = page_size / 4, .height = size / page_size, .bpp = 32,
	};
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	char *p;

	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		if (errno == ENOMEM || errno == EINTR)
			return 0;
		die("DRM_IOCTL_MODE_CREATE_DUMB");
	}
	prime.handle = create.handle;
	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
		die("DRM_IOCTL_PRIME_HANDLE_TO_FD");
	p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, prime.fd, 0);
	if (p == MAP_FAILED) {
		close(prime.fd);
		if (errno == ENOMEM)
			return create.handle;
		die("mmap of a dumb buffer's DMA-buf");
	}
	/* The pages stay with the buffer, out of our RSS. */
	touch(p, create.size);
	munmap(p, create.size);
	close(prime.fd);
	return create.handle;
}

void hog_memfd(void)
{
	int fd = memfd_create("hog", 0);
	char *buf = malloc(MIB);

	if (fd < 0 || !buf)
		die("memfd");
	if (hog_memfd_opened)
		hog_memfd_opened(fd);
	memset(buf, 0x5a, MIB);
	for (;;)
		if (write(fd, buf, MIB) < 0 && errno != EINTR && errno != ENOMEM)
			die("write to memfd");
}

void hog_dmabuf(void)
{
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);

	if (heap < 0)
		die("/dev/dma_heap/system");
	for (;;) {
		struct dma_heap_allocation_data data = {
			.len = CHUNK, .fd_flags = O_RDWR | O_CLOEXEC,
		};

		/* Keep the fds: they hold the buffers. */
		if (ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data) && errno != ENOMEM &&
		    errno != EINTR)
			die("DMA_HEAP_IOCTL_ALLOC");
	}
}

void hog_gem(void)
{
	int fd = open_vgem(NULL, 0);

	if (fd < 0)
		die("no vgem card");
	for (;;)
		gem_buffer(fd, CHUNK);
}
