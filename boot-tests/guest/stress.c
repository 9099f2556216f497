// SPDX-License-Identifier: GPL-2.0
/*
 * stress: every path that changes what a file reports to the OOM killer, at
 * once, for OOMTEST_STRESS_SECONDS (60 by default):
 *
 *   gem       threads creating and closing vgem dumb buffers on two shared
 *             DRM files, closing handles that others may be closing too
 *   prime     threads exporting buffers to DMA-bufs and importing them into
 *             the other file
 *   pass      a thread forking children that receive memfds and DMA-bufs
 *             over SCM_RIGHTS, read their fdinfo, and exit
 *   readers   threads reading every /proc/PID/oom_score and every fdinfo
 *
 * At the end all handles are closed and each DRM file must report 0 pages
 * in fdinfo; the kernel warns if a count went below zero or a file was
 * released with pages counted, which the boot test's log check catches.
 * Exits 0 when the counts are back to 0, 1 when not, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/dma-heap.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include "guest.h"

static atomic_bool stop;
static int drm[2], heap;
static atomic_long ops[4];
enum { GEM, PRIME, PASS, READ };

static __u32 gem_create(int fd, unsigned int pages)
{
	struct drm_mode_create_dumb arg = {
		.width = page_size / 4, .height = pages, .bpp = 32,
	};

	return ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &arg) ? 0 : arg.handle;
}

static void gem_close(int fd, __u32 handle)
{
	struct drm_gem_close arg = { .handle = handle };

	ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg);
}

static long fdinfo_badness(pid_t pid, int fd)
{
	char path[64], line[256];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_badness: %ld", &val) == 1)
			break;
	fclose(f);
	return val;
}

/* Create buffers, close them, and close handles the others may own. */
static void *gem_thread(void *arg)
{
	unsigned int seed = (unsigned long)arg;
	int fd = drm[seed & 1];

	while (!stop) {
		__u32 h = gem_create(fd, 1 + rand_r(&seed) % 64);

		if (h && rand_r(&seed) % 4)
			gem_close(fd, h);
		/* A handle of another thread, or none: EINVAL is fine. */
		gem_close(fd, 1 + rand_r(&seed) % 256);
		ops[GEM]++;
	}
	return NULL;
}

/* Export to a DMA-buf, import into the other file, drop both. */
static void *prime_thread(void *arg)
{
	unsigned int seed = (unsigned long)arg;

	while (!stop) {
		struct drm_prime_handle exp = { .flags = DRM_CLOEXEC | DRM_RDWR };
		struct drm_prime_handle imp = {};
		int from = rand_r(&seed) & 1;

		exp.handle = gem_create(drm[from], 1 + rand_r(&seed) % 32);
		if (!exp.handle)
			continue;
		if (!ioctl(drm[from], DRM_IOCTL_PRIME_HANDLE_TO_FD, &exp)) {
			imp.fd = exp.fd;
			if (!ioctl(drm[!from], DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp))
				gem_close(drm[!from], imp.handle);
			close(exp.fd);
		}
		gem_close(drm[from], exp.handle);
		ops[PRIME]++;
	}
	return NULL;
}

static int send_fds(int sock, int *fds, int n)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {};
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cmsg), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* The child: take the fds, look at them, go. */
static void receiver(int sock)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fds[2], i, n;

	if (recvmsg(sock, &msg, 0) != 1)
		_exit(1);
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg)
		_exit(1);
	n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	memcpy(fds, CMSG_DATA(cmsg), n * sizeof(int));
	for (i = 0; i < n; i++)
		fdinfo_badness(getpid(), fds[i]);
	_exit(0);
}

static void *pass_thread(void *arg)
{
	char buf[4096];

	memset(buf, 1, sizeof(buf));
	while (!stop) {
		struct dma_heap_allocation_data data = {
			.len = 16 * page_size, .fd_flags = O_RDWR | O_CLOEXEC,
		};
		int sv[2], fds[2], n = 0, i;
		pid_t child;

		fds[n] = memfd_create("pass", MFD_CLOEXEC);
		if (fds[n] >= 0) {
			for (i = 0; i < 8; i++)
				if (write(fds[n], buf, sizeof(buf)) < 0)
					break;
			n++;
		}
		if (heap >= 0 && !ioctl(heap, DMA_HEAP_IOCTL_ALLOC, &data))
			fds[n++] = data.fd;
		if (!n || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			continue;
		child = fork();
		if (child == 0)
			receiver(sv[1]);
		if (child > 0) {
			send_fds(sv[0], fds, n);
			waitpid(child, NULL, 0);
		}
		for (i = 0; i < n; i++)
			close(fds[i]);
		close(sv[0]);
		close(sv[1]);
		ops[PASS]++;
	}
	return NULL;
}

static void read_file(const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* Every oom_score and every fdinfo, again and again. */
static void *reader_thread(void *arg)
{
	char path[2 * NAME_MAX + 32];

	while (!stop) {
		DIR *proc = opendir("/proc");
		struct dirent *p, *f;

		if (!proc)
			die("/proc");
		while ((p = readdir(proc)) && !stop) {
			DIR *fdinfo;

			if (p->d_name[0] < '0' || p->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/oom_score", p->d_name);
			read_file(path);
			snprintf(path, sizeof(path), "/proc/%s/fdinfo", p->d_name);
			fdinfo = opendir(path);
			if (!fdinfo)
				continue;
			while ((f = readdir(fdinfo))) {
				snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s",
					 p->d_name, f->d_name);
				read_file(path);
			}
			closedir(fdinfo);
		}
		closedir(proc);
		ops[READ]++;
	}
	return NULL;
}

int main(void)
{
	const char *s = getenv("OOMTEST_STRESS_SECONDS");
	int seconds = s ? atoi(s) : 60, i, fail = 0;
	void *(*fn[])(void *) = {
		gem_thread, gem_thread, prime_thread, pass_thread,
		reader_thread, reader_thread,
	};
	pthread_t t[sizeof(fn) / sizeof(fn[0])];
	__u32 h;

	setvbuf(stdout, NULL, _IOLBF, 0);
	drm[0] = open_vgem(NULL, 0);
	drm[1] = open_vgem(NULL, 0);
	if (drm[0] < 0 || drm[1] < 0)
		die("no vgem card");
	heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);
	for (i = 0; i < (int)(sizeof(fn) / sizeof(fn[0])); i++)
		if (pthread_create(&t[i], NULL, fn[i], (void *)(long)(i + 1)))
			die("pthread_create");
	sleep(seconds);
	stop = true;
	for (i = 0; i < (int)(sizeof(fn) / sizeof(fn[0])); i++)
		pthread_join(t[i], NULL);
	printf("%d s: %ld GEM create/close, %ld PRIME round trips, %ld fd passes, %ld /proc sweeps\n",
	       seconds, ops[GEM], ops[PRIME], ops[PASS], ops[READ]);

	/* Close every handle left; then nothing may be counted. */
	for (i = 0; i < 2; i++) {
		long left;

		for (h = 1; h < 1u << 16; h++)
			gem_close(drm[i], h);
		left = fdinfo_badness(getpid(), drm[i]);
		printf("DRM file %d: %ld pages counted after closing every handle\n", i, left);
		if (left != 0)
			fail = 1;
	}
	return fail;
}
