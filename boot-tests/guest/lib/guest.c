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
#include <sys/socket.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include "kselftest.h"
#include "guest.h"

long page_size;

static void __attribute__((constructor)) guest_init(void)
{
	page_size = sysconf(_SC_PAGESIZE);
}

void die(const char *what)
{
	printf("error: %s: %s\n", what, strerror(errno));
	exit(2);
}

void skip(const char *why)
{
	printf("SKIP: %s\n", why);
	fflush(stdout);
	exit(KSFT_SKIP);
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

int open_card(const char *driver, char *path, size_t size)
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
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, driver)) {
			if (path)
				snprintf(path, size, "%s", card);
			return fd;
		}
		close(fd);
	}
	errno = ENODEV;
	return -1;
}

unsigned int gem_create(int fd, long pages)
{
	struct drm_mode_create_dumb create = {
		.width = page_size / 4, .height = pages, .bpp = 32,
	};

	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		if (errno == ENOMEM || errno == EINTR)
			return 0;
		die("DRM_IOCTL_MODE_CREATE_DUMB");
	}
	return create.handle;
}

int gem_close(int fd, unsigned int handle)
{
	struct drm_gem_close close = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close);
}

unsigned int gem_buffer(int fd, long size)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	char *p;

	prime.handle = gem_create(fd, size / page_size);
	if (!prime.handle)
		return 0;
	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime))
		die("DRM_IOCTL_PRIME_HANDLE_TO_FD");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, prime.fd, 0);
	if (p == MAP_FAILED) {
		close(prime.fd);
		if (errno == ENOMEM)
			return prime.handle;
		die("mmap of a dumb buffer's DMA-buf");
	}
	/* The pages stay with the buffer, out of our RSS. */
	touch(p, size);
	munmap(p, size);
	close(prime.fd);
	return prime.handle;
}

void write_forever(int fd, unsigned int pause_us)
{
	char *buf = malloc(MIB);

	if (!buf)
		die("malloc");
	memset(buf, 0x5a, MIB);
	for (;;) {
		if (write(fd, buf, MIB) < 0 && errno != EINTR && errno != ENOMEM)
			die("write to memfd");
		if (pause_us)
			usleep(pause_us);
	}
}

ssize_t sendmsg_fds(int sock, const int *fds, int n, int flags)
{
	char cbuf[CMSG_SPACE(MAX_SEND_FDS * sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	if (n < 1 || n > MAX_SEND_FDS) {
		errno = EINVAL;
		return -1;
	}
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cmsg), fds, n * sizeof(int));
	return sendmsg(sock, &msg, flags);
}

void send_fds(int sock, const int *fds, int n)
{
	if (sendmsg_fds(sock, fds, n, 0) != 1)
		die("SCM_RIGHTS");
}

void send_fd(int sock, int fd)
{
	send_fds(sock, &fd, 1);
}

int recv_fds(int sock, int *fds, int max)
{
	char cbuf[CMSG_SPACE(MAX_SEND_FDS * sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int n;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	if (n > max)
		n = max;
	memcpy(fds, CMSG_DATA(cmsg), n * sizeof(int));
	return n;
}

int recv_fd(int sock)
{
	int fd;

	return recv_fds(sock, &fd, 1) == 1 ? fd : -1;
}

int kmsg_open(void)
{
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		die("/dev/kmsg");
	return kmsg;
}

int oom_kills(int kmsg, pid_t *pids, int max)
{
	return oom_log(kmsg, pids, max, NULL);
}

int oom_log(int kmsg, pid_t *pids, int max, int *holds)
{
	char rec[2048];
	int n = 0;
	ssize_t len;

	if (holds)
		*holds = 0;
	while ((len = read(kmsg, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		char *k;

		if (len <= 0)
			continue;	/* EPIPE: records were overwritten */
		rec[len] = 0;
		k = strstr(rec, "Killed process ");
		if (k && n < max)
			pids[n++] = atoi(k + strlen("Killed process "));
		if (holds && strstr(rec, "Out of memory: holding back"))
			++*holds;
	}
	return n;
}

long proc_long(const char *path)
{
	char buf[32] = "";
	long val = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		val = atol(buf);
	if (fd >= 0)
		close(fd);
	return val;
}

long oom_score(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/oom_score", pid);
	return proc_long(path);
}

const char *expected_victim(const char *table, const char *scenario, const char *kind)
{
	static char victim[32];
	char line[256], *w[8];
	int col = -1, n, i;
	FILE *f = fopen(table, "r");

	if (!f)
		die(table);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		for (n = 0, w[0] = strtok(line, " \t\n"); w[n] && n < 7;)
			w[++n] = strtok(NULL, " \t\n");
		if (!n)
			continue;
		if (col < 0) {
			for (i = 1; i < n; i++)
				if (!strcmp(w[i], kind))
					col = i;
			if (col < 0) {
				fprintf(stderr, "%s: no column %s\n", table, kind);
				exit(2);
			}
		} else if (!strcmp(w[0], scenario) && col < n) {
			snprintf(victim, sizeof(victim), "%s", w[col]);
			fclose(f);
			return victim;
		}
	}
	fclose(f);
	fprintf(stderr, "%s: no row %s\n", table, scenario);
	exit(2);
}
